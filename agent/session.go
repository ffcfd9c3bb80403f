package agent

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/tools"
)

// SessionDir is where a project's sessions live, relative to its root.
const SessionDir = ".agent/sessions"

// sessionVersion is written in each session's first line so that a later
// format can tell old files apart.
const sessionVersion = 1

// validID keeps session ids to file-name-safe characters: an id comes from
// the command line and becomes a path. (A hand-written check rather than a
// regexp, to keep start-up free of compiling one.)
func validID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if !alnum && (i == 0 || c != '.' && c != '_' && c != '-') {
			return false
		}
	}
	return true
}

// Session is one conversation and its append-only log,
// .agent/sessions/<id>.jsonl. Every message is written as one JSON line
// the moment it is complete, so a crash loses at most the message in
// flight. The file is created with the first message.
type Session struct {
	ID   string
	path string
	f    *os.File
	// msgs is the conversation as sent to the model: consecutive
	// messages of the same role are merged (a prompt that follows tool
	// responses, after a resume), since providers want turns to alternate.
	msgs []llm.Message
	// replies counts the assistant messages, for change-set ids.
	replies int
	// torn is the length to cut the file back to before the next
	// append, when its last line was left half-written by a crash.
	torn int64
	now  func() time.Time
	// system is the system prompt of the conversation and systemKey
	// what it was built from (the tool catalog), so that a resumed
	// conversation can keep the same bytes; systemPending is true until
	// a changed prompt is written to the log.
	system, systemKey string
	systemPending     bool
	// turns are the user messages that can be rewound to, oldest first;
	// turnCount numbers them (never reused, so run ids stay unique).
	turns     []Turn
	turnCount int
	// rewoundAt is the time of the last rewind: what was undone before
	// it can no longer be redone (see RewoundSince).
	rewoundAt time.Time
	// pending are the undos and redos to tell the model at its next turn.
	pending []pendingNote
	// todos is the model's plan as it last wrote it (todo_write).
	todos []tools.Todo
	// created is true when this process made the log (Discard).
	created bool
	// memory keeps the messages in memory only (NewMemorySession).
	memory bool
}

// record is one line of a session log.
type record struct {
	Type    string    `json:"type"` // "session" or "message"
	Time    time.Time `json:"time"`
	ID      string    `json:"id,omitempty"`
	Version int       `json:"version,omitempty"`
	Role    llm.Role  `json:"role,omitempty"`
	Text    string    `json:"text,omitempty"`
	// Key is what a "system" record's prompt was built from.
	Key string `json:"key,omitempty"`
	// Kept is, on a "compact" line, how many of the messages before it
	// stay after the summary (Text).
	Kept int `json:"kept,omitempty"`
	// Run is the run of a "turn", "rewind", "undo" or "redo" line, and
	// Files the files an undo or redo changed.
	Run   string   `json:"run,omitempty"`
	Files []string `json:"files,omitempty"`
	// Images are a message's images by reference: their bytes are
	// stored once beside the log (session_images.go).
	Images []llm.Image `json:"images,omitempty"`
	// Todos is the plan of a "todo" line.
	Todos []tools.Todo `json:"todos,omitempty"`
}

// NewSession starts a new session in the project at root. Nothing is
// written until the first message.
func NewSession(root string) *Session {
	now := time.Now
	return &Session{
		ID:   newSessionID(now()),
		path: filepath.Join(root, SessionDir),
		now:  now,
		torn: -1,
	}
}

// NewMemorySession starts a session that is never written: a
// sub-agent's (the explorer's), whose conversation lives only as long as
// the call that runs it, and whose answer is all the parent's session
// records of it.
func NewMemorySession() *Session {
	return &Session{ID: newSessionID(time.Now()), now: time.Now, torn: -1, memory: true}
}

// newSessionID makes an id that sorts by creation time and is unique
// without coordination: UTC time plus 32 random bits.
func newSessionID(t time.Time) string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return t.UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
}

// OpenSession loads the session id of the project at root, to continue it.
// A last line cut short by a crash is dropped (and removed from the file
// before the next append, so the log stays valid JSON lines).
func OpenSession(root, id string) (*Session, error) {
	if !validID(id) {
		return nil, fmt.Errorf("%w: %q is not a session id", ErrNoSession, id)
	}
	s := &Session{ID: id, path: filepath.Join(root, SessionDir), now: time.Now, torn: -1}
	if err := s.notLinked(); err != nil {
		return nil, err
	}
	data, err := os.ReadFile(s.file())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s", ErrNoSession, id)
	}
	if err != nil {
		return nil, fmt.Errorf("read session: %w", err)
	}
	if i := bytes.LastIndexByte(data, '\n'); i+1 < len(data) {
		s.torn = int64(i + 1)
		data = data[:i+1]
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), len(data)+1)
	for n := 1; sc.Scan(); n++ {
		line := sc.Bytes()
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var r record
		if err := json.Unmarshal(line, &r); err != nil {
			return nil, fmt.Errorf("session %s line %d is not valid JSON: %w", id, n, err)
		}
		switch r.Type {
		case "message":
			m := llm.Message{Role: r.Role, Text: r.Text, Images: r.Images}
			s.loadImages(&m)
			s.add(m)
			if r.Role == llm.User {
				s.pending = nil // told with this message
			}
		case "turn", "rewind", "undo", "redo":
			s.replayTurn(r)
		case "system":
			s.system, s.systemKey = r.Text, r.Key
		case "compact":
			s.compacted(r.Text, r.Kept)
		case "todo":
			s.todos = r.Todos
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read session: %w", err)
	}
	return s, nil
}

// LastSession returns the id of the project's most recently written
// session, or ErrNoSession.
func LastSession(root string) (string, error) {
	dir := filepath.Join(root, SessionDir)
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("list sessions: %w", err)
	}
	var best string
	var bestTime time.Time
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".jsonl")
		if !ok || e.IsDir() || !validID(id) {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		// Ties (same mtime granularity) go to the later id, which sorts
		// by creation time.
		if t := info.ModTime(); best == "" || t.After(bestTime) || (t.Equal(bestTime) && id > best) {
			best, bestTime = id, t
		}
	}
	if best == "" {
		return "", fmt.Errorf("%w: this project has no sessions yet", ErrNoSession)
	}
	return best, nil
}

func (s *Session) file() string { return filepath.Join(s.path, s.ID+".jsonl") }

// Path returns the session log's file name.
func (s *Session) Path() string { return s.file() }

// Messages returns the conversation as it is sent to the model.
func (s *Session) Messages() []llm.Message { return s.msgs }

// Replies returns how many replies the model has given in this session.
func (s *Session) Replies() int { return s.replies }

func (s *Session) add(m llm.Message) {
	if m.Role == llm.Assistant {
		s.replies++
	}
	s.msgs = merge(s.msgs, m)
}

// merge appends m to msgs, joined to the last message when the roles
// repeat (its text after a blank line, its images after the last's).
func merge(msgs []llm.Message, m llm.Message) []llm.Message {
	n := len(msgs)
	if n == 0 || msgs[n-1].Role != m.Role {
		return append(msgs, m)
	}
	last := &msgs[n-1]
	last.Text += "\n\n" + m.Text
	if len(m.Images) > 0 {
		last.Images = append(slices.Clip(last.Images), m.Images...)
	}
	return msgs
}

// System returns the conversation's system prompt as last recorded, and
// the key it was built from; both are empty for a new session.
func (s *Session) System() (prompt, key string) { return s.system, s.systemKey }

// SetSystem records the conversation's system prompt and the key it was
// built from (the tool catalog). It is written to the log with the next
// message, and only when it differs from the one recorded.
func (s *Session) SetSystem(prompt, key string) {
	if prompt == s.system && key == s.systemKey {
		return
	}
	s.system, s.systemKey, s.systemPending = prompt, key, true
}

// Append adds m to the conversation and writes it to the log at once.
func (s *Session) Append(m llm.Message) error {
	if s.memory {
		s.add(m)
		return nil
	}
	if err := s.open(); err != nil {
		return err
	}
	if s.systemPending {
		if err := s.write(record{Type: "system", Time: s.now().UTC(), Text: s.system, Key: s.systemKey}); err != nil {
			return err
		}
		s.systemPending = false
	}
	if err := s.saveImages(m.Images); err != nil {
		return err
	}
	if err := s.write(record{Type: "message", Time: s.now().UTC(), Role: m.Role, Text: m.Text, Images: m.Images}); err != nil {
		return err
	}
	s.add(m)
	return nil
}

// open creates or reopens the log for appending, writing the header line
// of a new session.
func (s *Session) open() error {
	if s.f != nil {
		return nil
	}
	if err := s.notLinked(); err != nil {
		return err
	}
	if err := os.MkdirAll(s.path, 0o700); err != nil {
		return fmt.Errorf("create session folder: %w", err)
	}
	f, err := os.OpenFile(s.file(), os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("open session log: %w", err)
	}
	if s.torn >= 0 {
		if err := f.Truncate(s.torn); err != nil {
			f.Close()
			return fmt.Errorf("repair session log: %w", err)
		}
		s.torn = -1
	}
	s.f = f
	info, err := f.Stat()
	if err != nil {
		return fmt.Errorf("open session log: %w", err)
	}
	if info.Size() == 0 {
		s.created = true
		return s.write(record{Type: "session", Time: s.now().UTC(), ID: s.ID, Version: sessionVersion})
	}
	return nil
}

// Discard removes the log of a session this process started that has no
// reply of the model yet (a run that failed before its first turn was
// answered), so that it leaves no session behind to list or continue.
// It reports whether it removed it; a session with a reply, or one that
// existed before, is kept.
func (s *Session) Discard() (bool, error) {
	if !s.created {
		return false, nil
	}
	for _, m := range s.msgs {
		if m.Role == llm.Assistant {
			return false, nil
		}
	}
	s.Close()
	if err := os.Remove(s.file()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Errorf("remove session log: %w", err)
	}
	if err := os.RemoveAll(s.imagesDir()); err != nil {
		return true, fmt.Errorf("remove session images: %w", err)
	}
	s.created = false
	return true, nil
}

// notLinked refuses a session log that is, or is in, a symlink: a cloned
// repository could link .agent/sessions/<id>.jsonl to another file, which
// --continue would then feed to the model as the conversation and every
// turn would append to.
func (s *Session) notLinked() error {
	for _, p := range []string{filepath.Dir(s.path), s.path, s.file(), s.imagesDir()} {
		if fi, err := os.Lstat(p); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			return fmt.Errorf("%s is a symlink; the agent keeps its sessions only in real files inside the project, so it does not follow it: remove the link", p)
		}
	}
	return nil
}

// write appends one record as one line with a single write, so a line is
// either whole or (after a crash mid-write) the torn last line that
// OpenSession drops.
func (s *Session) write(r record) error {
	b, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("encode session record: %w", err)
	}
	if _, err := s.f.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("write session log: %w", err)
	}
	return nil
}

// Close closes the log file.
func (s *Session) Close() error {
	if s.f == nil {
		return nil
	}
	err := s.f.Close()
	s.f = nil
	return err
}
