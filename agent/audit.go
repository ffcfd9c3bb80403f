package agent

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"time"

	"github.com/agentcli/agent/internal/termtext"
)

// AuditFile is the project's audit log, relative to its root.
const AuditFile = ".agent/audit.jsonl"

// auditValueMax is the longest parameter value kept whole in the audit
// log; longer ones (file content) are shortened, since the log is for
// knowing what happened, and backups hold the content.
const auditValueMax = 200

// AuditEntry is one line of the audit log: one tool call.
type AuditEntry struct {
	Time       time.Time         `json:"time"`
	Session    string            `json:"session"`
	ChangeSet  string            `json:"change_set,omitempty"`
	CallID     string            `json:"call_id"`
	Tool       string            `json:"tool"`
	Params     map[string]string `json:"params,omitempty"`
	Outcome    string            `json:"outcome"`
	Code       string            `json:"code,omitempty"`
	DurationMS float64           `json:"duration_ms"`
	Rule       string            `json:"rule,omitempty"` // the permission rule that decided, if any
	// A hook's line (one per decision a hook made: blocked, allowed,
	// changed a call's input, failed, ...): the hook, its event, and
	// its reason or what it changed; Outcome is what it did.
	Hook   string `json:"hook,omitempty"`
	Event  string `json:"event,omitempty"`
	Detail string `json:"detail,omitempty"`
}

// Audit appends one JSON line per tool call to .agent/audit.jsonl. It is
// safe for concurrent use (several sessions of one project may run at
// once; each line is one write to a file opened for appending).
type Audit struct {
	mu   sync.Mutex
	path string
	f    *os.File
}

// NewAudit returns the audit log of the project at root. The file is
// created with the first entry.
func NewAudit(root string) *Audit {
	return &Audit{path: filepath.Join(root, AuditFile)}
}

// Record appends e, with long parameter values shortened and anything
// that looks like a secret masked.
func (a *Audit) Record(e AuditEntry) error {
	if a == nil {
		return nil
	}
	e.Params = auditParams(e.Params)
	b, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("encode audit entry: %w", err)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.f == nil {
		if err := notLinked(a.path); err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(a.path), 0o700); err != nil {
			return fmt.Errorf("create audit folder: %w", err)
		}
		f, err := os.OpenFile(a.path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
		if err != nil {
			return fmt.Errorf("open audit log: %w", err)
		}
		a.f = f
	}
	if _, err := a.f.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("write audit log: %w", err)
	}
	return nil
}

// Check reports, before any call, whether the log could be written: an
// error when it is a symlink (see notLinked). Callers that cannot stop
// halfway (a server) check first, so as to refuse to start instead.
func (a *Audit) Check() error {
	if a == nil {
		return nil
	}
	return notLinked(a.path)
}

// notLinked refuses an audit log that is, or is in, a symlink. A cloned
// repository can hold .agent/audit.jsonl as a link to the user's
// ~/.bashrc: the log's lines carry the calls' parameters, which a model
// (or a client of agent serve) chooses, so appending to it would let
// "$(...)" in a file name run at the next shell. The log stays a real
// file inside the project.
func notLinked(path string) error {
	for _, p := range []string{filepath.Dir(path), path} {
		fi, err := os.Lstat(p)
		if err == nil && fi.Mode()&os.ModeSymlink != 0 {
			return fmt.Errorf("%s is a symlink; the agent keeps its audit log only in a real file inside the project, so it does not follow it: remove the link", p)
		}
	}
	return nil
}

// Close closes the log file.
func (a *Audit) Close() error {
	if a == nil {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.f == nil {
		return nil
	}
	err := a.f.Close()
	a.f = nil
	return err
}

// secretName matches parameter names whose values are credentials. The
// patterns are compiled on first use: most runs of the program never write
// an audit line, and compiling them costs milliseconds at start-up.
var secretName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(api[_-]?key|token|secret|password|passwd|authorization|credential|private[_-]?key)`)
})

// secretValue matches the shapes of common credentials, wherever they
// appear in a value: provider keys, bearer tokens, private key blocks.
var secretValue = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(sk-[A-Za-z0-9_-]{16,}|sk-ant-[A-Za-z0-9_-]{16,}|AIza[0-9A-Za-z_-]{30,}|gh[pousr]_[A-Za-z0-9]{30,}|xox[abpr]-[A-Za-z0-9-]{10,}|bearer\s+[A-Za-z0-9._~+/=-]{16,}|-----BEGIN [A-Z ]*PRIVATE KEY-----)`)
})

// auditParams shortens long values and masks secrets.
func auditParams(in map[string]string) map[string]string {
	if len(in) == 0 {
		return nil
	}
	out := make(map[string]string, len(in))
	for k, v := range in {
		switch {
		case secretName().MatchString(k):
			v = "[redacted]"
		default:
			v = secretValue().ReplaceAllString(v, "[redacted]")
			v = shortenValue(v, auditValueMax)
		}
		out[k] = v
	}
	return out
}

// auditText is a hook's reason for the log: shortened, secrets masked.
func auditText(s string) string {
	return shortenValue(secretValue().ReplaceAllString(s, "[redacted]"), auditValueMax)
}

// shortenValue keeps the start of a long value and says how much was
// left out, cutting on a rune boundary.
func shortenValue(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := termtext.RunePrefix(s, max)
	return cut + fmt.Sprintf("... [%d more bytes]", len(s)-len(cut))
}
