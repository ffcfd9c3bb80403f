package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/llm"
)

// sessionInfo is one line of `agent sessions`.
type sessionInfo struct {
	ID string `json:"id"`
	// Time is when the session was last written.
	Time        time.Time `json:"time"`
	FirstPrompt string    `json:"first_prompt"`
	// Turns counts the user's prompts (tool responses are not turns).
	Turns int `json:"turns"`
}

func newSessionsCmd(d *factory) *cobra.Command {
	var (
		dir    string
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "sessions",
		Short: "List this project's conversations (to continue one with --session ID)",
		Long: `sessions lists the conversations recorded under .agent/sessions, oldest
first: the id, when it was last written, its first prompt and how many
prompts it has. 'agent run --session ID' continues one, '--continue' the
last.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			root, err := projectFolder(dir)
			if err != nil {
				return err
			}
			list, err := listSessions(root)
			if err != nil {
				return err
			}
			if asJSON {
				enc := json.NewEncoder(d.io.Out)
				enc.SetIndent("", "  ")
				return enc.Encode(list)
			}
			if len(list) == 0 {
				fmt.Fprintln(d.io.Out, "no sessions yet")
				return nil
			}
			tw := tabwriter.NewWriter(d.io.Out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tTIME\tTURNS\tFIRST PROMPT")
			for _, s := range list {
				fmt.Fprintf(tw, "%s\t%s\t%d\t%s\n", s.ID, s.Time.Local().Format("2006-01-02 15:04:05"), s.Turns, safeText(oneLine(s.FirstPrompt, 60)))
			}
			return tw.Flush()
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "project folder (default: the current folder)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the sessions as JSON")
	return cmd
}

// listSessions reads every session of the project at root, oldest first.
// A session that cannot be read is listed with what is known of it.
func listSessions(root string) ([]sessionInfo, error) {
	entries, err := os.ReadDir(filepath.Join(root, agent.SessionDir))
	if err != nil && !os.IsNotExist(err) {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	list := []sessionInfo{}
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".jsonl")
		if !ok || e.IsDir() {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		info := sessionInfo{ID: id, Time: fi.ModTime()}
		if s, err := agent.OpenSession(root, id); err == nil {
			for _, m := range s.Messages() {
				if m.Role != llm.User || strings.HasPrefix(strings.TrimSpace(m.Text), "<tool_response") {
					continue
				}
				if info.Turns == 0 {
					info.FirstPrompt = strings.TrimSpace(m.Text)
				}
				info.Turns++
			}
		} else {
			continue // not a session (a stray file or an invalid id)
		}
		list = append(list, info)
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].Time.Before(list[j].Time) })
	return list, nil
}

// oneLine shortens s to its first line and at most n runes.
func oneLine(s string, n int) string {
	s, _, cut := strings.Cut(s, "\n")
	r := []rune(s)
	if len(r) > n {
		return string(r[:n-1]) + "…"
	}
	if cut {
		return s + " …"
	}
	return s
}
