package fsedit

import (
	"crypto/sha256"
	"io/fs"
	"sync"
	"time"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/sandbox"
)

// fileState is what the model last knew of a file: as it read it, or as
// the agent itself wrote it. A rewrite or partial write is allowed only
// while the file on disk still matches it (size, mtime and hash).
type fileState struct {
	size  int64
	mtime time.Time
	sum   [sha256.Size]byte
	crc   uint32 // CRC-32C of the content: the fast check of a partial write
	lines int
	cps   []sandbox.Checkpoint // SHA-256 states along the content
	// known: the lines the model saw in this state, and through which
	// call. A rewrite needs all of them (whole: one read, or ranges that
	// add up, or a create or rewrite of its own), since it would drop
	// lines the model never saw; a partial write needs its own range.
	known []lineSpan
}

func (s fileState) matches(fi fs.FileInfo) bool {
	return fi.Size() == s.size && fi.ModTime().Equal(s.mtime)
}

// Session is one conversation's use of the file tools. It remembers which
// files the model has read, and in what state, so that write_file can
// refuse to overwrite a file the model never saw or saw in an older state
// (FILE_STALE). Create one per conversation; its tools share it.
type Session struct {
	root *sandbox.Root
	mu   sync.Mutex
	seen map[string]fileState // by canonical path
	// shifts: where the current reply's writes moved lines (see movedBy).
	shifts map[string]replyShifts
	// editor, when it has functions, reads and writes the files'
	// text instead of the disk (UseEditor).
	editor Editor
}

// NewSession returns a Session over root with nothing read yet.
func NewSession(root *sandbox.Root) *Session {
	return &Session{root: root, seen: map[string]fileState{}, shifts: map[string]replyShifts{}}
}

// NewTools returns the file tools of one conversation over root:
// read_file, write_file, list_directory and search_files, sharing a new
// Session.
func NewTools(root *sandbox.Root) []tools.Tool { return NewSession(root).Tools() }

// Tools returns the session's file tools.
func (s *Session) Tools() []tools.Tool {
	return []tools.Tool{s.ReadTool(), s.WriteTool(), s.ListTool(), s.SearchTool()}
}

// Root returns the sandbox the session works in.
func (s *Session) Root() *sandbox.Root { return s.root }

func (s *Session) remember(rel string, st fileState) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seen[rel] = st
}

func (s *Session) recall(rel string) (fileState, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.seen[rel]
	return st, ok
}

func (s *Session) forget(rel string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.seen, rel)
}

// ignorer builds the gitignore matcher of one listing or search, fresh
// each time so an edited .gitignore counts at once. Without
// Options.NewIgnorer nothing is ignored.
func (s *Session) ignorer() sandbox.Ignorer {
	if f := s.root.Options().NewIgnorer; f != nil {
		if ig, err := f(s.root.Dir()); err == nil {
			return ig
		}
	}
	return sandbox.NoIgnore{}
}

// Forget drops everything the session knows of the files, as if the
// model had read none: after a rewind the model no longer has the reads
// of the turns taken back, so each file must be read again before a
// rewrite or partial write.
func (s *Session) Forget() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.seen)
	clear(s.shifts)
}
