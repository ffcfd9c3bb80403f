package editor

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	acp "github.com/coder/acp-go-sdk"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/xmlcall"
	"github.com/agentcli/agent/internal/termtext"
	"github.com/agentcli/agent/tools"
)

// updater turns the events of one turn into session updates: the one
// place where what the loop does becomes what the editor shows.
type updater struct {
	s    *session
	turn int

	mu sync.Mutex
	// calls are the turn's tool calls by iteration and the model's id
	// (which starts again at 1 in each reply); iter is the latest
	// reply's, the one approval questions are about.
	calls map[string]*toolCall
	iter  int
}

// toolCall is one tool call as the editor knows it.
type toolCall struct {
	id     acp.ToolCallId
	def    tools.Definition
	params map[string]string
	// diff is what an edit changes, from its preview, once known.
	diff []acp.ToolCallContent
	// output is a running command's output so far (its tail).
	output []byte
}

func newUpdater(s *session, turn int) *updater {
	return &updater{s: s, turn: turn, calls: map[string]*toolCall{}}
}

// maxShown bounds the text of one tool call's content in an update: the
// editor shows it, the model has the whole.
const maxShown = 32 << 10

// emit sends what ev shows. It runs on the loop's goroutine, so the
// updates of a call go out in the order it happened and before the
// prompt is answered. A plan the model keeps (the todo tool's event) is
// one more case: a `plan` update (acp.UpdatePlan), an entry per item,
// the whole list each time.
func (u *updater) emit(ev agent.Event) {
	switch ev.Type {
	case agent.EventText:
		u.s.send(acp.UpdateAgentMessageText(ev.Text))
	case agent.EventThought:
		u.s.send(acp.UpdateAgentThoughtText(ev.Text))
	case agent.EventCall:
		u.s.send(u.started(ev.Iteration, *ev.Call))
	case agent.EventToolStart:
		u.s.send(u.running(ev.Iteration, *ev.Call))
	case agent.EventOutput:
		u.s.send(u.output(ev.Iteration, *ev.Call, ev.Text))
	case agent.EventResult:
		u.finished(ev.Iteration, ev.Result)
	case agent.EventTodo:
		u.s.send(acp.UpdatePlan(planEntries(ev.Todos)...))
	case agent.EventRetry:
		u.s.a.logf("%s: trying again (%s)", ev.Retry.Provider, ev.Retry.Message)
	case agent.EventError:
		u.s.a.logf("session %s: %v", u.s.id, ev.Err)
	}
}

// planEntries is the model's plan as ACP's plan entries, whole each
// time. ACP has no cancelled step: a cancelled one is left out.
func planEntries(todos []tools.Todo) []acp.PlanEntry {
	out := make([]acp.PlanEntry, 0, len(todos))
	for _, t := range todos {
		e := acp.PlanEntry{Content: t.Text, Priority: acp.PlanEntryPriorityMedium, Status: acp.PlanEntryStatusPending}
		switch t.Status {
		case tools.TodoInProgress:
			e.Status = acp.PlanEntryStatusInProgress
		case tools.TodoCompleted:
			e.Status = acp.PlanEntryStatusCompleted
		case tools.TodoCancelled:
			continue
		}
		out = append(out, e)
	}
	return out
}

func callKey(iter int, id string) string { return fmt.Sprintf("%d/%s", iter, id) }

// call returns the tool call of the model's call c in reply iter,
// making it the first time.
func (u *updater) call(iter int, c xmlcall.Call) *toolCall {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.iter = max(u.iter, iter)
	key := callKey(iter, c.ID)
	tc, ok := u.calls[key]
	if !ok {
		tc = &toolCall{id: acp.ToolCallId(fmt.Sprintf("call-%d-%d-%s", u.turn, iter, c.ID)), params: params(c.Params)}
		if t, found := u.s.conv.Tools().Lookup(c.Name); found {
			tc.def = t.Definition()
		} else {
			tc.def = tools.Definition{Name: c.Name}
		}
		u.calls[key] = tc
	}
	return tc
}

// asked is the tool call an approval question of the latest reply is
// about.
func (u *updater) asked(c xmlcall.Call) *toolCall {
	u.mu.Lock()
	iter := u.iter
	u.mu.Unlock()
	return u.call(iter, c)
}

func params(ps []xmlcall.Param) map[string]string {
	m := make(map[string]string, len(ps))
	for _, p := range ps {
		m[p.Name] = p.Value
	}
	return m
}

// started is the tool_call update of a call the model wrote.
func (u *updater) started(iter int, c xmlcall.Call) acp.SessionUpdate {
	tc := u.call(iter, c)
	return acp.StartToolCall(tc.id, u.title(tc),
		acp.WithStartKind(acp.ToolKind(tc.def.Does())),
		acp.WithStartStatus(acp.ToolCallStatusPending),
		acp.WithStartLocations(u.locations(tc)),
		acp.WithStartRawInput(tc.params))
}

// title names a call in one line: its tool and what it works on.
func (u *updater) title(tc *toolCall) string {
	t := tc.def.Name
	if subject := tc.def.Subject(tc.params); subject != "" {
		t += " " + subject
	}
	return termtext.RunePrefix(termtext.OneLine(t), 120)
}

// locations are the files a call works on, absolute, for the editor to
// follow.
func (u *updater) locations(tc *toolCall) []acp.ToolCallLocation {
	var out []acp.ToolCallLocation
	for _, name := range tc.def.PathParams() {
		if v := strings.TrimSpace(tc.params[name]); v != "" {
			out = append(out, acp.ToolCallLocation{Path: u.abs(v)})
		}
	}
	return out
}

func (u *updater) abs(p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(u.s.dir, p)
}

// running is the update of a call that was approved and starts: for an
// edit, with what it changes.
func (u *updater) running(iter int, c xmlcall.Call) acp.SessionUpdate {
	tc := u.call(iter, c)
	if tc.diff == nil && tc.def.Does() == tools.ActionEdit {
		tc.diff = u.previewDiff(tc, c)
	}
	return acp.UpdateToolCall(tc.id, acp.WithUpdateStatus(acp.ToolCallStatusInProgress), acp.WithUpdateContent(tc.diff))
}

// previewDiff is what the call would change, as the tool's preview says
// before it runs; nil when it cannot say.
func (u *updater) previewDiff(tc *toolCall, c xmlcall.Call) []acp.ToolCallContent {
	t, in, bad := u.s.conv.Tools().Validate(c.Name, tc.params)
	pv, ok := t.(tools.Previewer)
	if bad != nil || !ok {
		return nil
	}
	p, refused, err := pv.Preview(context.WithoutCancel(u.s.a.ctx), in)
	if err != nil || refused != nil {
		return nil
	}
	return diffContents(p.Diff, u.abs)
}

// output is the update of a running command's output so far.
func (u *updater) output(iter int, c xmlcall.Call, text string) acp.SessionUpdate {
	tc := u.call(iter, c)
	tc.output = append(tc.output, text...)
	if len(tc.output) > maxShown {
		tc.output = tc.output[len(tc.output)-maxShown:]
	}
	return acp.UpdateToolCall(tc.id, acp.WithUpdateContent([]acp.ToolCallContent{acp.ToolContent(acp.TextBlock(string(tc.output)))}))
}

// finished sends the end of a call: completed or failed, with what it
// changed (an edit's diff) or said.
func (u *updater) finished(iter int, r *agent.CallResult) {
	tc := u.call(iter, xmlcall.Call{ID: r.ID, Name: r.Tool, Params: r.Params})
	status := acp.ToolCallStatusCompleted
	if r.Result.IsError() {
		status = acp.ToolCallStatusFailed
	}
	var content []acp.ToolCallContent
	if !r.Result.IsError() && len(r.Result.Changed) > 0 {
		content = append(content, tc.diff...)
	}
	if shown := resultText(r); shown != "" {
		content = append(content, acp.ToolContent(acp.TextBlock(shown)))
	}
	u.s.send(acp.UpdateToolCall(tc.id,
		acp.WithUpdateStatus(status),
		acp.WithUpdateContent(content),
		acp.WithUpdateRawOutput(map[string]any{"outcome": r.Outcome(), "code": r.Result.Code, "message": r.Result.Message})))
}

// resultText is a call's result as the editor shows it: the message,
// then the tool's output (a command's, a search's), bounded. An edit
// shows its diff instead of the tool's.
func resultText(r *agent.CallResult) string {
	res := r.Result
	msg := res.Message
	if res.IsError() {
		msg = res.Code + ": " + msg
	}
	if res.Content == "" || res.IsError() || len(res.Changed) > 0 {
		return msg
	}
	body := res.Content
	if len(body) > maxShown {
		body = termtext.RunePrefix(body, maxShown) + "\n…"
	}
	if msg == "" {
		return body
	}
	return msg + "\n\n" + body
}
