package conversation

import (
	"fmt"
	"strings"
	"time"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/xmlcall"
)

// Exchange is one turn of the conversation as a recap shows it: what the
// person said and what the model answered in prose, its calls counted.
type Exchange struct {
	Prompt string
	// Reply is the prose of the model's replies in the turn, tool calls
	// left out.
	Reply string
	// Calls counts the tool calls the model made in the turn.
	Calls int
}

// Recap returns the last n turns of the conversation (all when n <= 0)
// and how many turns it has, for the chat to show what a resumed session
// was about.
func (c *Conversation) Recap(n int) ([]Exchange, int) {
	var all []Exchange
	for _, m := range c.Session().Messages() {
		switch {
		case m.Role == llm.User && !isToolResponse(m.Text):
			all = append(all, Exchange{Prompt: strings.TrimSpace(WithoutPlanNote(m.Text))})
		case m.Role == llm.Assistant && len(all) > 0:
			e := &all[len(all)-1]
			calls, errs := xmlcall.Parse(m.Text, c.tools.Reg.ParamNames)
			e.Calls += len(calls) + len(errs)
			if p := prose(m.Text, c.tools.Reg.ParamNames); p != "" {
				e.Reply = p // the last reply's prose is the answer
			}
		}
	}
	total := len(all)
	if n > 0 && len(all) > n {
		all = all[len(all)-n:]
	}
	return all, total
}

func isToolResponse(s string) bool {
	return strings.HasPrefix(strings.TrimSpace(s), "<tool_response")
}

// prose is a reply's text outside its tool calls.
func prose(reply string, lookup xmlcall.ParamLookup) string {
	sc := xmlcall.NewScanner(lookup)
	var sb strings.Builder
	for _, e := range sc.Feed(reply) {
		sb.WriteString(e.Text)
	}
	for _, e := range sc.Close() {
		sb.WriteString(e.Text)
	}
	return strings.TrimSpace(sb.String())
}

// sessionLabel is a session in the /resume list: when it was last
// written, its first prompt and its number of turns.
func sessionLabel(s agent.SessionInfo, now time.Time) string {
	first := strings.Join(strings.Fields(s.FirstPrompt), " ")
	if r := []rune(first); len(r) > 60 {
		first = string(r[:59]) + "…"
	}
	if first == "" {
		first = "(no prompt)"
	}
	turns := "1 turn"
	if s.Turns != 1 {
		turns = fmt.Sprintf("%d turns", s.Turns)
	}
	return fmt.Sprintf("%s · %s · %s", whenLabel(s.Time, now), first, turns)
}

// whenLabel is a session's time as a person reads it: the time today,
// the day and time this year, the date before.
func whenLabel(t, now time.Time) string {
	t = t.Local()
	now = now.Local()
	switch {
	case t.YearDay() == now.YearDay() && t.Year() == now.Year():
		return t.Format("today 15:04")
	case t.Year() == now.Year():
		return t.Format("Jan 2 15:04")
	}
	return t.Format("2006-01-02")
}
