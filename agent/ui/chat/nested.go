package chat

import (
	"strings"

	"github.com/agentcli/agent/agent"
)

// nested shows an event of a sub-agent (a task call's) run by a call:
// each call it makes, as it is answered, becomes the running line of the
// call's card ("↳ ✓ read_file a.go"), and its tokens count in the
// conversation's usage. Its prose and thoughts stay out of the chat: its
// answer arrives as the call's result.
func (m *Model) nested(e agent.Event) {
	n := e.Nested
	if n == nil || e.Call == nil {
		return
	}
	switch n.Type {
	case agent.EventUsage:
		if n.Usage != nil {
			m.info.TokensIn += n.Usage.InputTokens
			m.info.TokensOut += n.Usage.OutputTokens
		}
	case agent.EventResult:
		c := m.cards[e.Call.ID]
		if c == nil || n.Result == nil {
			return
		}
		mark := "✓"
		if n.Result.Result.IsError() {
			mark = "✗ " + n.Result.Result.Code
		}
		line := strings.TrimSpace("↳ " + mark + " " + n.Result.Tool + " " + keyParams(n.Result.Params))
		c.output = ""
		c.addOutput(line)
	}
}
