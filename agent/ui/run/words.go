package run

import (
	"fmt"
	"strings"
	"time"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/xmlcall"
)

// callSummary is one line naming a call and its parameters: short values
// as they are, long or multi-line ones (file content) by their size.
func callSummary(c *xmlcall.Call) string {
	var b strings.Builder
	b.WriteString(c.Name)
	for _, p := range c.Params {
		v := strings.TrimSpace(p.Value)
		if len(v) > 60 || strings.Contains(v, "\n") {
			v = fmt.Sprintf("(%d bytes)", len(p.Value))
		}
		fmt.Fprintf(&b, " %s=%s", p.Name, v)
	}
	return b.String()
}

// ruleActivity is the activity line of a call a permission rule let run
// unasked: `write_file docs/a.md: allowed by permissions.allow "docs/**"`.
func ruleActivity(ev agent.Event) string {
	what := ev.Call.Name
	if ev.Subject != "" {
		what += " " + ev.Subject
	}
	return what + ": allowed by " + ev.Rule
}

// retryText words a retry for the user: "rate limited by gemini, retrying
// in 12 s (2/3)".
func retryText(r *agent.Retry) string {
	if r == nil {
		return "retrying"
	}
	who := r.Provider
	if who == "" {
		who = "the provider"
	}
	var what string
	switch r.Reason {
	case "stream_dropped":
		return "the reply stream from " + who + " dropped before any tool call; asking again"
	case "rate_limited":
		what = "rate limited by " + who
	case "server_error":
		what = who + " had a server error"
	case "timeout":
		// The silence was the wait: the call is made again at once.
		s := "no answer from " + who
		if r.Silence > 0 {
			s += " in " + waitText(r.Silence)
		}
		if r.Wait > 0 {
			s += ", retrying in " + waitText(r.Wait)
		} else {
			s += ", retrying"
		}
		if r.Attempts > 0 {
			s += fmt.Sprintf(" (%d/%d)", r.Attempt+1, r.Attempts)
		}
		return s
	case "malformed":
		what = who + " sent a malformed reply"
	default:
		what = "could not reach " + who
	}
	s := fmt.Sprintf("%s, retrying in %s", what, waitText(r.Wait))
	if r.Attempts > 0 {
		s += fmt.Sprintf(" (%d/%d)", r.Attempt+1, r.Attempts)
	}
	return s
}

// waitText says a wait the way people read it: "800 ms", "12 s", "2 min".
func waitText(d time.Duration) string { return llm.DurationText(d) }
