package chat

import (
	"context"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/hooks"
	"github.com/agentcli/agent/agent/xmlcall"
	"github.com/agentcli/agent/tools"
)

// What a hook did shows under the card of its call, whose parameters
// become the ones the hook gave; a hook about no call gets a line of its
// own.
func TestHookLines(t *testing.T) {
	m := New(context.Background(), Options{Conversation: newTestConv(t), Width: 100})
	m.resize(100, 40)
	m.run, m.running = 1, true
	m.cards = map[string]*card{}
	m.md = newMarkdown(&m.st, m.width)
	send := func(e agent.Event) { m.Update(eventMsg{run: 1, event: e}) }
	call := &xmlcall.Call{ID: "1", Name: "write_file", Params: []xmlcall.Param{{Name: "file_path", Value: "draft.md"}}}
	send(agent.Event{Type: agent.EventCall, Iteration: 1, Call: call})
	moved := &xmlcall.Call{ID: "1", Name: "write_file", Params: []xmlcall.Param{{Name: "file_path", Value: "drafts/draft.md"}}}
	r := hooks.Report{Hook: "redirect.sh", Event: hooks.PreToolUse, Tool: "write_file", Action: hooks.ActionChanged, Detail: "file_path = drafts/draft.md"}
	send(agent.Event{Type: agent.EventHook, Iteration: 1, Call: moved, Hook: &r, Text: r.Text()})
	send(agent.Event{Type: agent.EventResult, Iteration: 1, Result: &agent.CallResult{ID: "1", Tool: "write_file", Params: moved.Params, Result: tools.Result{Message: "created drafts/draft.md"}}})
	printed := ansi.Strip(m.Printed())
	if !strings.Contains(printed, "write_file drafts/draft.md") || !strings.Contains(printed, "⚑ hook redirect.sh changed the input of write_file: file_path = drafts/draft.md") {
		t.Errorf("printed:\n%s", printed)
	}

	m.Update(printedMsg{}) // the first print is done
	b := hooks.Report{Hook: "notify.sh", Event: hooks.Notification, Action: hooks.ActionFailed, Detail: "exit status 1"}
	send(agent.Event{Type: agent.EventHook, Iteration: 1, Hook: &b, Text: b.Text()})
	if printed := ansi.Strip(m.Printed()); !strings.Contains(printed, "⚑ hook notify.sh failed on Notification: exit status 1") {
		t.Errorf("printed:\n%s", printed)
	}
}
