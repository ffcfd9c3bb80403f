package editor

import (
	"context"
	"errors"
	"strings"

	acp "github.com/coder/acp-go-sdk"

	"github.com/agentcli/agent/agent"
)

// The options of a permission request; each id is its kind.
var permissionOptions = []acp.PermissionOption{
	{OptionId: "allow_once", Name: "Allow", Kind: acp.PermissionOptionKindAllowOnce},
	{OptionId: "allow_always", Name: "Allow always in this session", Kind: acp.PermissionOptionKindAllowAlways},
	{OptionId: "reject_once", Name: "Reject", Kind: acp.PermissionOptionKindRejectOnce},
	{OptionId: "reject_always", Name: "Reject always in this session", Kind: acp.PermissionOptionKindRejectAlways},
}

// errAskCancelled ends a turn whose permission request the client
// answered "cancelled" (the person cancelled the turn).
var errAskCancelled = errors.New("the permission request was cancelled")

// Ask asks the person, through session/request_permission, about a call
// the approval rules leave to them. "Always" is the conversation's: for
// the call's scope (its tool, or the narrower scope its preview names)
// for the rest of the session; a scope rejected always is refused
// without asking again.
func (s *session) Ask(ctx context.Context, q agent.Question) (agent.Answer, error) {
	scope := q.Scope()
	s.mu.Lock()
	rejected := s.rejected[scope]
	s.mu.Unlock()
	if rejected {
		return agent.Answer{Decision: agent.Deny, Reason: "the user refused this for the rest of the session"}, nil
	}
	resp, err := s.a.conn.RequestPermission(ctx, acp.RequestPermissionRequest{
		SessionId: acp.SessionId(s.id),
		ToolCall:  s.question(q),
		Options:   permissionOptions,
	})
	if err != nil {
		return agent.Answer{}, err
	}
	if resp.Outcome.Selected == nil {
		return agent.Answer{}, errAskCancelled
	}
	switch resp.Outcome.Selected.OptionId {
	case "allow_once":
		return agent.Answer{Decision: agent.Allow}, nil
	case "allow_always":
		return agent.Answer{Decision: agent.AllowAlways}, nil
	case "reject_always":
		s.mu.Lock()
		s.rejected[scope] = true
		s.mu.Unlock()
	}
	return agent.Answer{Decision: agent.Deny}, nil
}

// question is the tool call a permission request is about, as the
// editor shows it: the call already sent, with what it would change.
func (s *session) question(q agent.Question) acp.ToolCallUpdate {
	u := s.currentTurn()
	if u == nil { // asked outside a turn: a call of its own
		u = newUpdater(s, 0)
	}
	tc := u.asked(q.Call)
	if tc.diff == nil && q.Preview.Diff != "" {
		tc.diff = diffContents(q.Preview.Diff, u.abs)
	}
	content := tc.diff
	if len(content) == 0 {
		lines := append([]string{q.Preview.Summary}, q.Preview.Lines...)
		content = []acp.ToolCallContent{acp.ToolContent(acp.TextBlock(strings.TrimSpace(strings.Join(lines, "\n"))))}
	}
	return acp.ToolCallUpdate{
		ToolCallId: tc.id,
		Title:      acp.Ptr(u.title(tc)),
		Kind:       acp.Ptr(acp.ToolKind(tc.def.Does())),
		Status:     acp.Ptr(acp.ToolCallStatusPending),
		Locations:  u.locations(tc),
		RawInput:   tc.params,
		Content:    content,
	}
}
