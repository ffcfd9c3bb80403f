package fsedit

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/agentcli/agent/tools/sandbox"
)

// savedFile is one file's entry in a saved session state.
type savedFile struct {
	Size   int64     `json:"size"`
	MTime  time.Time `json:"mtime"`
	SHA256 string    `json:"sha256"`
	CRC32C uint32    `json:"crc32c"`
	Lines  int       `json:"lines"`
	// Partial: only a line range was read (a state saved before this
	// field existed counts as a whole read).
	Partial bool `json:"partial,omitempty"`
	// Seen are the line ranges seen and the calls that showed them; a
	// partial state saved without them allows no write until a new read.
	Seen []savedSpan `json:"seen,omitempty"`
	// States are SHA-256 checkpoints: offset and marshalled state.
	States []savedState `json:"sha256_states,omitempty"`
}

type savedSpan struct {
	From int    `json:"from"`
	To   int    `json:"to"`
	Call string `json:"call,omitempty"`
}

type savedState struct {
	Offset int64  `json:"offset"`
	State  []byte `json:"state"`
}

// SaveState writes what the session knows of the files (which files the
// model read, and in what state) as JSON, so a conversation continued in
// another process keeps its reads: without it every write after a
// restart would be refused with FILE_STALE.
func (s *Session) SaveState(w io.Writer) error {
	s.mu.Lock()
	files := make(map[string]savedFile, len(s.seen))
	for rel, st := range s.seen {
		f := savedFile{Size: st.size, MTime: st.mtime, SHA256: hex.EncodeToString(st.sum[:]), CRC32C: st.crc, Lines: st.lines, Partial: !st.whole()}
		for _, sp := range st.known {
			f.Seen = append(f.Seen, savedSpan{From: sp.from, To: sp.to, Call: sp.call})
		}
		for _, c := range st.cps {
			f.States = append(f.States, savedState{Offset: c.Off, State: c.State})
		}
		files[rel] = f
	}
	s.mu.Unlock()
	return json.NewEncoder(w).Encode(map[string]any{"files": files})
}

// LoadState adds the files of a state written by SaveState. A file that
// changed on disk since is still refused at its next write (FILE_STALE),
// as it would have been in the original process.
func (s *Session) LoadState(r io.Reader) error {
	var in struct {
		Files map[string]savedFile `json:"files"`
	}
	if err := json.NewDecoder(r).Decode(&in); err != nil {
		return fmt.Errorf("load file session state: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for rel, f := range in.Files {
		st := fileState{size: f.Size, mtime: f.MTime, crc: f.CRC32C, lines: f.Lines}
		for _, sp := range f.Seen {
			st.known = append(st.known, lineSpan{from: sp.From, to: sp.To, call: sp.Call})
		}
		if len(f.Seen) == 0 && !f.Partial {
			st.known = []lineSpan{{from: 1, to: f.Lines}}
		}
		for _, c := range f.States {
			st.cps = append(st.cps, sandbox.Checkpoint{Off: c.Offset, State: c.State})
		}
		if b, err := hex.DecodeString(f.SHA256); err != nil || len(b) != len(st.sum) {
			continue
		} else {
			copy(st.sum[:], b)
		}
		s.seen[rel] = st
	}
	return nil
}
