package run

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/internal/termtext"
)

// Sessions prints the project's conversations (agent sessions), oldest
// first, as a table or as JSON: what agent run --session continues.
func Sessions(w io.Writer, list []agent.SessionInfo, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(list)
	}
	if len(list) == 0 {
		fmt.Fprintln(w, "no sessions yet")
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tTIME\tTURNS\tFIRST PROMPT")
	for _, s := range list {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\n", s.ID, s.Time.Local().Format("2006-01-02 15:04:05"), s.Turns, termtext.Escape(termtext.Clip(termtext.OneLine(s.FirstPrompt), 60)))
	}
	return tw.Flush()
}

// SessionCompletions are the sessions of list as shell completions
// ("id<TAB>description"), the latest first, each with its time and first
// prompt.
func SessionCompletions(list []agent.SessionInfo) []string {
	out := make([]string, 0, len(list))
	for i := len(list) - 1; i >= 0; i-- {
		s := list[i]
		out = append(out, s.ID+"\t"+s.Time.Local().Format("2006-01-02 15:04")+" "+termtext.Clip(termtext.OneLine(s.FirstPrompt), 50))
	}
	return out
}
