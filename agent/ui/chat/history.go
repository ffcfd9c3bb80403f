package chat

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"syscall"

	tea "charm.land/bubbletea/v2"
)

// history is what the user sent before, in this and earlier sessions of
// the project, kept in .agent/history as one JSON string a line (so a
// multi-line message stays one entry).
//
// A cloned repository can ship .agent/history, or .agent itself, as a
// symlink (to ~/.bashrc, say), and the chat would append every message
// typed there, outside the project, where a shell later runs a pasted
// $(...). So the file is opened inside the project only (os.Root),
// never through a link: .agent must be a real folder and history a
// regular file with one name; anything else is neither read nor
// written, and the chat says so once.
type history struct {
	root    string // the project folder; "" keeps no file
	entries []string
	pos     int    // index into entries while browsing; len(entries) when not
	draft   string // what was in the editor before browsing
	// refused says why .agent/history is not kept (a symlink, not a
	// regular file); told, that the person has been told.
	refused string
	told    bool
}

// historyFile is the history's path in the project.
const historyFile = ".agent/history"

// historyMax is how many entries are kept.
const historyMax = 1000

func loadHistory(root string) *history {
	h := &history{root: root}
	if root == "" {
		return h
	}
	f, err := openHistory(root, os.O_RDONLY)
	var rf *historyRefusal
	if errors.As(err, &rf) {
		h.refused, h.root = rf.Error(), ""
	}
	if err != nil {
		return h
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, 64<<20))
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

// historyRefusal says why .agent/history is not kept.
type historyRefusal struct{ why string }

func (e *historyRefusal) Error() string {
	return historyFile + " " + e.why + ", so the chat neither reads nor writes it (your messages are not kept for ↑); replace it with a regular file, or remove it"
}

// openHistory opens .agent/history of the project root with flag (adding
// O_NOFOLLOW and O_NONBLOCK), inside the project only, and checks that it
// is a regular file with one name. A refused file is a *historyRefusal.
func openHistory(root string, flag int) (*os.File, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if fi, err := r.Lstat(".agent"); err == nil && !fi.IsDir() {
		if fi.Mode()&fs.ModeSymlink != 0 {
			return nil, &historyRefusal{"is in .agent, a symlink"}
		}
		return nil, &historyRefusal{"is in .agent, which is not a folder"}
	}
	if flag&os.O_CREATE != 0 {
		if err := r.Mkdir(".agent", 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
	}
	if fi, err := r.Lstat(historyFile); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return nil, &historyRefusal{"is a symlink"}
	}
	f, err := r.OpenFile(historyFile, flag|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o600)
	if errors.Is(err, syscall.ELOOP) {
		return nil, &historyRefusal{"is a symlink"}
	}
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	switch {
	case err != nil:
		f.Close()
		return nil, err
	case !fi.Mode().IsRegular():
		f.Close()
		return nil, &historyRefusal{"is not a regular file"}
	case nlink(fi) > 1:
		f.Close()
		return nil, &historyRefusal{"is a hard link (a file with another name)"}
	}
	return f, nil
}

// nlink is the number of names of the file fi (1 where unknown).
func nlink(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// historyRefusedMsg reports that a write of the history was refused.
type historyRefusedMsg struct{ why string }

// add records a sent message and returns the command that appends it to
// the file.
func (h *history) add(s string) tea.Cmd {
	if n := len(h.entries); n == 0 || h.entries[n-1] != s {
		h.entries = append(h.entries, s)
	}
	h.pos = len(h.entries)
	h.draft = ""
	if h.root == "" {
		return nil
	}
	root := h.root
	return func() tea.Msg {
		// History is a convenience: failing to keep it is not worth
		// interrupting the user for, unless the file was refused.
		f, err := openHistory(root, os.O_APPEND|os.O_CREATE|os.O_WRONLY)
		var rf *historyRefusal
		if errors.As(err, &rf) {
			return historyRefusedMsg{why: rf.Error()}
		}
		if err != nil {
			return nil
		}
		b, _ := json.Marshal(s)
		f.Write(append(b, '\n'))
		f.Close()
		return nil
	}
}

// refusal returns why the history is not kept, once: "" afterwards, or
// when it is kept.
func (h *history) refusal(why string) string {
	if why != "" {
		h.refused, h.root = why, ""
	}
	if h.told || h.refused == "" {
		return ""
	}
	h.told = true
	return h.refused
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
