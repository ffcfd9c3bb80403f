package agent

import (
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
