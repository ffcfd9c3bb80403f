package editor

import (
	"strings"

	acp "github.com/coder/acp-go-sdk"

	"github.com/agentcli/agent/agent/conversation"
	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/xmlcall"
)

// replay sends a loaded session's conversation as updates, as it went:
// the person's messages, the model's prose, and its tool calls with
// whether they succeeded (from the tool responses that answered them).
func (s *session) replay() {
	u := newUpdater(s, 0)
	msgs := s.conv.Session().Messages()
	for i, m := range msgs {
		switch {
		case m.Role == llm.User && !isToolResponse(m.Text):
			s.send(acp.UpdateUserMessageText(strings.TrimSpace(conversation.WithoutPlanNote(m.Text))))
		case m.Role == llm.Assistant:
			var answers string
			if i+1 < len(msgs) && isToolResponse(msgs[i+1].Text) {
				answers = msgs[i+1].Text
			}
			s.replayReply(u, i, m.Text, answers)
		}
	}
}

// replayReply sends one reply of the model: its prose and its calls,
// each completed or failed as its response said.
func (s *session) replayReply(u *updater, iter int, reply, answers string) {
	sc := xmlcall.NewScanner(s.conv.Tools().ParamNames)
	events := append(sc.Feed(reply), sc.Close()...)
	for _, e := range events {
		if e.Text != "" {
			s.send(acp.UpdateAgentMessageText(e.Text))
		}
		if e.Call == nil {
			continue
		}
		s.send(u.started(iter, *e.Call))
		tc := u.call(iter, *e.Call)
		status := acp.ToolCallStatusCompleted
		if failed(answers, e.Call.ID) {
			status = acp.ToolCallStatusFailed
		}
		s.send(acp.UpdateToolCall(tc.id, acp.WithUpdateStatus(status)))
	}
}

func isToolResponse(s string) bool {
	return strings.HasPrefix(strings.TrimSpace(s), "<tool_response")
}

// failed reports whether the tool responses answered call id with an
// error: its result is an <error code="..."> (docs/protocol.md §2).
func failed(answers, id string) bool {
	start := strings.Index(answers, `<tool_response id="`+id+`"`)
	if start < 0 {
		return false
	}
	rest := answers[start:]
	if end := strings.Index(rest, "</tool_response>"); end >= 0 {
		rest = rest[:end]
	}
	_, result, ok := strings.Cut(rest, "<result>")
	return ok && strings.HasPrefix(strings.TrimSpace(result), "<error")
}
