package conversation

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/internal/atomicfile"
	"github.com/agentcli/agent/tools/fsedit"
)

// ErrUsage marks an error in what the caller asked for (a session that
// does not exist, --continue with no session): cmd/agent reports it as
// bad usage.
var ErrUsage = errors.New("bad usage")

// usageError wraps err as ErrUsage, keeping its message.
type usageError struct{ err error }

func (e usageError) Error() string       { return e.err.Error() }
func (e usageError) Unwrap() []error     { return []error{e.err, ErrUsage} }
func usage(err error) error              { return usageError{err} }
func usagef(f string, args ...any) error { return usage(fmt.Errorf(f, args...)) }

// UsageErrorf is an ErrUsage error with the message f formats, for the
// faces beside cmd/agent (agent tts's, for one) to report bad usage.
func UsageErrorf(f string, args ...any) error { return usagef(f, args...) }

// openSession starts or resumes the conversation asked for: the session
// id, the project's last one (continueLast), or a new one.
func openSession(root, id string, continueLast bool) (*agent.Session, error) {
	if continueLast {
		last, err := agent.LastSession(root)
		if err != nil {
			return nil, usagef("--continue: %w", err)
		}
		id = last
	}
	if id == "" {
		return agent.NewSession(root), nil
	}
	s, err := agent.OpenSession(root, id)
	if errors.Is(err, agent.ErrNoSession) {
		return nil, usage(err)
	}
	return s, err
}

// fileStatePath is where the file tools' knowledge of a session (which
// files the model read, and in what state) is kept between runs.
func fileStatePath(root, sessionID string) string {
	return filepath.Join(root, agent.SessionDir, sessionID+".files.json")
}

// loadFileState makes files hold what the model of the session read, and
// nothing else: a new or cleared session has read nothing, a continued
// one what it had read (so its writes are not refused as stale). A
// missing state is an empty one.
func loadFileState(files *fsedit.Session, root, sessionID string) error {
	files.Forget()
	if err := LoadState(files, fileStatePath(root, sessionID)); err != nil {
		return fmt.Errorf("read file state: %w", err)
	}
	return nil
}

// LoadState adds the reads saved in the file at path to files; a missing
// file adds none.
func LoadState(files *fsedit.Session, path string) error {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	return files.LoadState(f)
}

// saveFileState writes the file session's state next to the session log,
// through a synced temporary file so a crash never leaves half a state.
func saveFileState(files *fsedit.Session, root, sessionID string) error {
	path := fileStatePath(root, sessionID)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("save file state: %w", err)
	}
	if err := WriteAtomically(path, files.SaveState); err != nil {
		return fmt.Errorf("save file state: %w", err)
	}
	return nil
}

// WriteAtomically writes path, readable by the user only, whole or not
// at all.
func WriteAtomically(path string, write func(io.Writer) error) error {
	return atomicfile.WriteFile(path, 0o600, write)
}
