// Package backup keeps the old content of every file the agent overwrites,
// under .agent/backups in the project, with an append-only manifest that
// groups the writes into change sets (everything one model reply wrote)
// and runs (everything one user message caused), so that a whole turn can
// be undone at once and redone.
//
// Layout:
//
//	.agent/backups/manifest.jsonl     one Entry per line, oldest first
//	.agent/backups/<change set>/N-name  the old content (a blob)
//
// A blob is usually a hard link to the file's old inode, made just before
// the new content is renamed over it, so a backup of a large file costs no
// copy; where linking fails the caller copies. The store itself never
// touches project files: package fsedit does the writing and restoring.
package backup

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"sync"
	"time"
)

// Dir is the backup folder, relative to the project root.
const Dir = ".agent/backups"

const manifestName = "manifest.jsonl"

// Operations recorded in an Entry.
const (
	OpCreate  = "create"
	OpRewrite = "rewrite"
	OpPartial = "partial"
	OpReplace = "replace"
	OpPut     = "put"     // a write of any bytes by another tool (sandbox.Root.Put)
	OpRestore = "restore" // content put back by undo or restore
	OpDelete  = "delete"  // a file removed by undo (it did not exist before)
	// OpUnchanged records an undo or redo that found a file already as
	// it wanted it (nothing written, nothing backed up).
	OpUnchanged = "unchanged"
)

// Entry records one write of one file: the state before it (Existed, Blob,
// SHA256Before) and after it (SHA256After, empty when the write removed
// the file).
type Entry struct {
	Time      time.Time `json:"time"`
	Session   string    `json:"session,omitempty"`
	Call      string    `json:"call,omitempty"`
	ChangeSet string    `json:"change_set"`
	// Run groups the change sets of one user message (one run of the
	// loop); empty in old manifests, where each change set is its own.
	Run string `json:"run,omitempty"`
	// Undoes names the change set a restore reverted.
	Undoes string `json:"undoes,omitempty"`
	// UndoRun and RedoRun name the run an undo reverted or a redo put
	// back; the entry is part of that undo or redo.
	UndoRun string `json:"undo_run,omitempty"`
	RedoRun string `json:"redo_run,omitempty"`
	Path    string `json:"path"`
	Op      string `json:"op"`
	// Existed says whether the file existed before the write.
	Existed bool `json:"existed"`
	// Blob is the old content, relative to Dir; empty when the file did
	// not exist or the write asked for no backup.
	Blob         string      `json:"blob,omitempty"`
	Mode         fs.FileMode `json:"mode,omitempty"`
	Size         int64       `json:"size"`
	SHA256Before string      `json:"sha256_before,omitempty"`
	SHA256After  string      `json:"sha256_after,omitempty"`
	// Dirs are the folders the write created for the file, outermost
	// first: an undo removes those left empty, and only those.
	Dirs []string `json:"dirs,omitempty"`
	// Sig is the entry's signature as read from the manifest (see
	// sign.go); Append writes a new one.
	Sig string `json:"sig,omitempty"`
	// Verified reports that Sig checks with the store's key: this user's
	// agent wrote the entry. Only such entries are restored unforced.
	Verified bool `json:"-"`

	raw []byte // the line as read, kept as it is when the manifest is rewritten
}

// Retention bounds what the store keeps. Zero or negative means no limit.
type Retention struct {
	MaxAge   time.Duration
	MaxBytes int64
}

// Store is the backup folder of one project.
type Store struct {
	root *os.Root // the project root
	now  func() time.Time
	keep Retention
	key  []byte // signs the entries written, verifies those read
	mu   sync.Mutex
	seq  int
}

// New returns the store of the project opened as root. now is its clock;
// key signs the entries it writes and verifies those it reads (an empty
// key verifies none).
func New(root *os.Root, keep Retention, now func() time.Time, key []byte) *Store {
	if now == nil {
		now = time.Now
	}
	return &Store{root: root, keep: keep, now: now, key: key}
}

// Now returns the store's clock reading.
func (s *Store) Now() time.Time { return s.now() }

// NewBlobPath reserves a fresh blob path for a backup of file (a project
// path) in changeSet, creating its folder. The path is relative to the
// project root; the caller links or copies the old content there and then
// records it with Append (Entry.Blob is the path relative to Dir).
func (s *Store) NewBlobPath(changeSet, file string) (string, error) {
	dir := path.Join(Dir, safeName(changeSet))
	if err := CheckReal(s.root, dir); err != nil {
		return "", err
	}
	if err := s.root.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("create backup folder: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		s.seq++
		p := path.Join(dir, fmt.Sprintf("%d-%d-%s", os.Getpid(), s.seq, safeName(path.Base(file))))
		if _, err := s.root.Lstat(p); errors.Is(err, fs.ErrNotExist) {
			return p, nil
		}
	}
}

// BlobRel turns a project-relative blob path into Entry.Blob's form.
func BlobRel(projectPath string) string { return strings.TrimPrefix(projectPath, Dir+"/") }

// Append records e, signed, in the manifest and syncs it to disk before
// returning, so that a crash right after never leaves a write without
// its record.
func (s *Store) Append(e Entry) error {
	if e.Time.IsZero() {
		e.Time = s.now()
	}
	line, err := s.encode(e)
	if err != nil {
		return err
	}
	if err := CheckReal(s.root, Dir); err != nil {
		return err
	}
	if err := s.root.MkdirAll(Dir, 0o700); err != nil {
		return fmt.Errorf("create backup folder: %w", err)
	}
	unlock, err := s.lock()
	if err != nil {
		return err
	}
	defer unlock()
	f, err := s.root.OpenFile(path.Join(Dir, manifestName), os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("open backup manifest: %w", err)
	}
	line = append(line, '\n')
	// A crash mid-append leaves a line without its break; start a new
	// line so this entry is not glued to the torn one and lost with it.
	if fi, err := f.Stat(); err == nil && fi.Size() > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, fi.Size()-1); err == nil && last[0] != '\n' {
			line = append([]byte{'\n'}, line...)
		}
	}
	if _, err := f.Write(line); err != nil {
		f.Close()
		return fmt.Errorf("write backup manifest: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("sync backup manifest: %w", err)
	}
	return f.Close()
}

// encode is the signed manifest line of a new entry.
func (s *Store) encode(e Entry) ([]byte, error) {
	e.Sig, e.raw = "", nil
	line, err := json.Marshal(e)
	if err != nil {
		return nil, fmt.Errorf("encode backup entry: %w", err)
	}
	return sign(line, s.key), nil
}

// Entries returns every entry of the manifest, oldest first, each marked
// Verified when its signature checks with the store's key. A line that
// cannot be decoded (a torn write after a crash) is skipped.
func (s *Store) Entries() ([]Entry, error) {
	f, err := s.root.Open(path.Join(Dir, manifestName))
	if err != nil {
		// A backup folder linked elsewhere (a cloned repository can hold
		// such a link) is named as such, not as the os.Root error it
		// causes or as an empty history.
		if lerr := CheckReal(s.root, Dir); lerr != nil {
			return nil, lerr
		}
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("open backup manifest: %w", err)
	}
	defer f.Close()
	var out []Entry
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var e Entry
		if json.Unmarshal(sc.Bytes(), &e) == nil && e.Path != "" {
			e.raw = append([]byte(nil), sc.Bytes()...)
			e.Verified = verify(e.raw, s.key)
			out = append(out, e)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read backup manifest: %w", err)
	}
	return out, nil
}

// OpenBlob opens the backup of e.
func (s *Store) OpenBlob(e Entry) (*os.File, error) {
	if e.Blob == "" {
		return nil, fmt.Errorf("no backup kept of %s", e.Path)
	}
	return s.root.Open(path.Join(Dir, e.Blob))
}

// safeName keeps a name usable as one path component.
func safeName(s string) string {
	b := []byte(s)
	for i, c := range b {
		ok := c == '.' || c == '-' || c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !ok {
			b[i] = '_'
		}
	}
	out := strings.TrimLeft(string(b), ".")
	if out == "" {
		return "_"
	}
	return out
}

// writeLine writes e as it was read (its signature, or lack of one,
// unchanged), or signed when it is new.
func (s *Store) writeLine(f io.Writer, e Entry) error {
	line := e.raw
	if line == nil {
		var err error
		if line, err = s.encode(e); err != nil {
			return err
		}
	}
	_, err := f.Write(append(line[:len(line):len(line)], '\n'))
	return err
}
