package editor

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	acp "github.com/coder/acp-go-sdk"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/conversation"
)

// session is one ACP session: a conversation, and the state of its turn.
type session struct {
	a    *agentSide
	id   string // the conversation's session id, which agent sessions lists
	dir  string
	conv *conversation.Conversation

	mu    sync.Mutex
	turns int      // prompts so far, for the tool calls' ids
	turn  *updater // of the running turn; nil between turns
	// rejected are the scopes the person refused "always" in this
	// session (reject_always): asked no more.
	rejected map[string]bool
}

// send sends one update of the session. It is sent whatever the turn's
// context: the updates after a session/cancel must still reach the
// client before the prompt's answer.
func (s *session) send(u acp.SessionUpdate) {
	err := s.a.conn.SessionUpdate(context.WithoutCancel(s.a.ctx), acp.SessionNotification{SessionId: acp.SessionId(s.id), Update: u})
	if err != nil {
		s.a.logf("session %s: update not sent: %v", s.id, err)
	}
}

// prompt runs one turn: the prompt's content read (images attached, the
// files it names read through the file tools), a slash command run, or
// the conversation's Run, its events sent as updates.
func (s *session) prompt(ctx context.Context, blocks []acp.ContentBlock) (acp.PromptResponse, error) {
	text, err := s.promptText(ctx, blocks)
	if err != nil {
		return acp.PromptResponse{}, err
	}
	if strings.TrimSpace(text) == "" {
		return acp.PromptResponse{}, acp.NewInvalidParams(map[string]any{"error": "the prompt is empty"})
	}
	if cmd, args, ok := s.command(text); ok {
		return s.runCommand(ctx, cmd, args)
	}
	u := s.beginTurn()
	defer s.endTurn()
	out, err := s.conv.Run(ctx, text, u.emit)
	return s.stopReason(ctx, out, err)
}

func (s *session) beginTurn() *updater {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.turns++
	s.turn = newUpdater(s, s.turns)
	return s.turn
}

func (s *session) endTurn() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.turn = nil
}

// currentTurn is the running turn's updater; nil between turns.
func (s *session) currentTurn() *updater {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.turn
}

// stopReason is the protocol's end of a turn: cancelled when the client
// cancelled it (whatever the loop made of that), the iteration limit,
// a truncated answer, the end. A failure of the model or the program is
// an error, in one line.
func (s *session) stopReason(ctx context.Context, out *agent.Outcome, err error) (acp.PromptResponse, error) {
	switch {
	case ctx.Err() != nil || errors.Is(err, context.Canceled) || errors.Is(err, errAskCancelled):
		return acp.PromptResponse{StopReason: acp.StopReasonCancelled}, nil
	case errors.Is(err, agent.ErrMaxIterations) || out != nil && out.Stopped:
		return acp.PromptResponse{StopReason: acp.StopReasonMaxTurnRequests}, nil
	case err != nil:
		return acp.PromptResponse{}, acp.NewInternalError(map[string]any{"error": err.Error()})
	case out != nil && out.Truncated:
		return acp.PromptResponse{StopReason: acp.StopReasonMaxTokens}, nil
	}
	return acp.PromptResponse{StopReason: acp.StopReasonEndTurn}, nil
}

// notOffered says why an editor does not get the conversation's command
// name ("" when it does): the editor itself starts and loads sessions,
// and a session's id must stay the one the editor knows.
func notOffered(name string) string {
	switch name {
	case "clear":
		return "start a new session in the editor"
	case "resume":
		return "load the session in the editor"
	case "rewind":
		return "it replaces the conversation the editor shows"
	}
	return ""
}

// commands are the conversation's slash commands an editor gets.
func (s *session) commands() []conversation.Command {
	var out []conversation.Command
	for _, c := range s.conv.Commands() {
		if notOffered(c.Name) == "" {
			out = append(out, c)
		}
	}
	return out
}

// availableCommands is the available_commands_update of the session.
func (s *session) availableCommands() acp.SessionUpdate {
	var list []acp.AvailableCommand
	for _, c := range s.commands() {
		ac := acp.AvailableCommand{Name: c.Name, Description: c.Help}
		if c.Args != "" {
			ac.Input = &acp.AvailableCommandInput{Unstructured: &acp.UnstructuredCommandInput{Hint: c.Args}}
		}
		list = append(list, ac)
	}
	return acp.SessionUpdate{AvailableCommandsUpdate: &acp.SessionAvailableCommandsUpdate{AvailableCommands: list}}
}

// command reads text as one of the session's slash commands ("/undo",
// "/model gemini/gemini-2.5-pro").
func (s *session) command(text string) (conversation.Command, string, bool) {
	name, args, _ := strings.Cut(strings.TrimSpace(text), " ")
	name, ok := strings.CutPrefix(name, "/")
	if !ok {
		return conversation.Command{}, "", false
	}
	for _, c := range s.conv.Commands() {
		if c.Name == name {
			return c, strings.TrimSpace(args), true
		}
	}
	return conversation.Command{}, "", false
}

// runCommand runs a slash command and sends its reply as the agent's
// message; a command an editor does not get says why.
func (s *session) runCommand(ctx context.Context, c conversation.Command, args string) (acp.PromptResponse, error) {
	if why := notOffered(c.Name); why != "" {
		s.send(acp.UpdateAgentMessageText(fmt.Sprintf("/%s is not available here: %s.", c.Name, why)))
		return acp.PromptResponse{StopReason: acp.StopReasonEndTurn}, nil
	}
	reply, err := c.Run(ctx, args)
	if err != nil {
		if ctx.Err() != nil {
			return acp.PromptResponse{StopReason: acp.StopReasonCancelled}, nil
		}
		s.send(acp.UpdateAgentMessageText(fmt.Sprintf("/%s failed: %v", c.Name, err)))
		return acp.PromptResponse{StopReason: acp.StopReasonEndTurn}, nil
	}
	text := reply.Text
	for _, ch := range reply.Choices {
		text += fmt.Sprintf("\n- %s: `/%s %s`", ch.Label, c.Name, ch.Value)
	}
	if strings.TrimSpace(text) != "" {
		s.send(acp.UpdateAgentMessageText(text))
	}
	return acp.PromptResponse{StopReason: acp.StopReasonEndTurn}, nil
}
