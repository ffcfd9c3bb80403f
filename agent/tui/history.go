package tui

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"

	tea "charm.land/bubbletea/v2"
)

// history is what the user sent before, in this and earlier sessions of
// the project, kept in .agent/history as one JSON string a line (so a
// multi-line message stays one entry).
type history struct {
	path    string
	entries []string
	pos     int    // index into entries while browsing; len(entries) when not
	draft   string // what was in the editor before browsing
}

// historyMax is how many entries are kept.
const historyMax = 1000

func loadHistory(root string) *history {
	h := &history{}
	if root == "" {
		return h
	}
	h.path = filepath.Join(root, ".agent", "history")
	f, err := os.Open(h.path)
	if err != nil {
		return h
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 4<<20)
	for sc.Scan() {
		var s string
		if json.Unmarshal(sc.Bytes(), &s) == nil && s != "" {
			h.entries = append(h.entries, s)
		}
	}
	if len(h.entries) > historyMax {
		h.entries = h.entries[len(h.entries)-historyMax:]
	}
	h.pos = len(h.entries)
	return h
}

// add records a sent message and returns the command that appends it to
// the file.
func (h *history) add(s string) tea.Cmd {
	if n := len(h.entries); n == 0 || h.entries[n-1] != s {
		h.entries = append(h.entries, s)
	}
	h.pos = len(h.entries)
	h.draft = ""
	if h.path == "" {
		return nil
	}
	path := h.path
	return func() tea.Msg {
		// History is a convenience: failing to keep it is not worth
		// interrupting the user for.
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil
		}
		f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
		if err != nil {
			return nil
		}
		b, _ := json.Marshal(s)
		f.Write(append(b, '\n'))
		f.Close()
		return nil
	}
}

// prev returns the entry before the current one; ok is false at the top.
func (h *history) prev(current string) (string, bool) {
	if h.pos == 0 {
		return "", false
	}
	if h.pos == len(h.entries) {
		h.draft = current
	}
	h.pos--
	return h.entries[h.pos], true
}

// next returns the entry after the current one, or the draft at the end.
func (h *history) next() (string, bool) {
	if h.pos >= len(h.entries) {
		return "", false
	}
	h.pos++
	if h.pos == len(h.entries) {
		return h.draft, true
	}
	return h.entries[h.pos], true
}
