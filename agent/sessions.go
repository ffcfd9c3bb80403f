package agent

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/agentcli/agent/agent/llm"
)

// SessionInfo is what a list of a project's sessions shows of one.
type SessionInfo struct {
	ID string `json:"id"`
	// Time is when the session was last written.
	Time        time.Time `json:"time"`
	FirstPrompt string    `json:"first_prompt"`
	// Turns counts the user's prompts (tool responses are not turns).
	Turns int `json:"turns"`
}

// ListSessions reads every session of the project at root, oldest first.
// A file that is not a session (a stray file, an invalid id) is left
// out.
func ListSessions(root string) ([]SessionInfo, error) {
	entries, err := os.ReadDir(filepath.Join(root, SessionDir))
	if err != nil && !os.IsNotExist(err) {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	list := []SessionInfo{}
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".jsonl")
		if !ok || e.IsDir() {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		s, err := OpenSession(root, id)
		if err != nil {
			continue
		}
		info := SessionInfo{ID: id, Time: fi.ModTime()}
		for _, m := range s.Messages() {
			if m.Role != llm.User || strings.HasPrefix(strings.TrimSpace(m.Text), "<tool_response") {
				continue
			}
			if info.Turns == 0 {
				info.FirstPrompt = strings.TrimSpace(m.Text)
			}
			info.Turns++
		}
		s.Close()
		list = append(list, info)
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].Time.Before(list[j].Time) })
	return list, nil
}

// RecordUndoIn records an undo or redo (kind) of run, which changed
// files, in session id of the project at root, so that the model hears
// of it when the conversation goes on (Session.RecordUndo). The log's
// time is kept: an undo does not make an older session the one
// --continue picks. told is false when nothing was recorded: no files
// changed, or no such session (a write from outside a conversation).
func RecordUndoIn(root, id, kind, run string, files []string) (told bool, err error) {
	if id == "" || len(files) == 0 {
		return false, nil
	}
	s, err := OpenSession(root, id)
	if errors.Is(err, ErrNoSession) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	fi, statErr := os.Stat(s.Path())
	err = s.RecordUndo(kind, run, files)
	if cerr := s.Close(); err == nil {
		err = cerr
	}
	if err == nil && statErr == nil {
		err = os.Chtimes(s.Path(), time.Time{}, fi.ModTime())
	}
	return err == nil, err
}

// SessionRewoundSince reports whether session id of the project at root
// was rewound after t (Session.RewoundSince). current, when given, is the
// open conversation's session, which may not be on disk yet. A session
// that does not exist was not rewound.
func SessionRewoundSince(root, id string, t time.Time, current *Session) (bool, error) {
	s := current
	if s == nil || s.ID != id {
		var err error
		if s, err = OpenSession(root, id); errors.Is(err, ErrNoSession) {
			return false, nil
		} else if err != nil {
			return false, err
		}
		defer s.Close()
	}
	return s.RewoundSince(t), nil
}
