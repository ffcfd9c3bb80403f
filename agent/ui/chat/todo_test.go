package chat

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/agentcli/agent/agent/llm/llmtest"
)

func todoCall(todos string) string {
	return "<tool_call name=\"todo_write\"><todos>\n" + todos + "</todos></tool_call>"
}

// TestPlanPinnedWhileTheTurnRuns: the model's plan shows above the
// editor as soon as it is written, follows each change, and is put into
// the scrollback once the turn ends; the next turn, which leaves it as
// it is, shows nothing of it.
func TestPlanPinnedWhileTheTurnRuns(t *testing.T) {
	b := newTestConv(t,
		reply("Planning.\n"+todoCall("- [>] Read the code\n- [ ] Write the tests\n")),
		reply(todoCall("- [x] Read the code\n- [>] Write the tests\n")),
		reply("All done."),
		reply("You're welcome."),
	)
	h := newHarness(t, b, Options{})
	h.say("test it")
	h.until("the plan above the editor", func() bool { return strings.Contains(h.view(), "plan · 0 of 2 done") })
	view := h.view()
	if !strings.Contains(view, "  ▶ Read the code\n  ○ Write the tests\n") || strings.Index(view, "plan ·") > strings.Index(view, "›") {
		t.Errorf("the plan is not pinned above the editor:\n%s", view)
	}
	h.until("the second plan", func() bool { return strings.Contains(h.view(), "plan · 1 of 2 done") })
	if view := h.view(); !strings.Contains(view, "  ✓ Read the code\n  ▶ Write the tests\n") {
		t.Errorf("the changed plan:\n%s", view)
	}
	h.until("the answer", func() bool { return h.idle() && strings.Contains(h.printed(), "All done.") })
	if strings.Contains(h.view(), "plan ·") {
		t.Errorf("the plan stays pinned after the turn:\n%s", h.view())
	}
	printed := h.printed()
	if !strings.Contains(printed, "plan · 1 of 2 done\n  ✓ Read the code\n  ▶ Write the tests") || strings.Index(printed, "plan ·") < strings.Index(printed, "All done.") {
		t.Errorf("the plan is not in the scrollback after the answer:\n%s", printed)
	}
	before := strings.Count(h.printed(), "plan ·")
	h.say("thanks")
	h.until("the answer", func() bool { return h.idle() && strings.Contains(h.printed(), "You're welcome.") })
	if n := strings.Count(h.printed(), "plan ·"); n != before {
		t.Errorf("a turn that did not change the plan printed it again:\n%s", h.printed())
	}
}

// TestPlanShortWhenTheWindowIsSmall: a plan taller than a third of the
// window shows as one line, its step in progress.
func TestPlanShortWhenTheWindowIsSmall(t *testing.T) {
	b := newTestConv(t, reply(todoCall("- [x] one\n- [x] two\n- [>] three\n- [ ] four\n- [ ] five\n")), llmtest.Reply{Text: "Working on it", Block: true})
	h := newHarness(t, b, Options{})
	h.deliver(tea.WindowSizeMsg{Width: 80, Height: 15})
	h.say("go")
	h.until("the short plan", func() bool { return strings.Contains(h.view(), "plan · 2 of 5 done · ▶ three") })
	if strings.Contains(h.view(), "○ four") {
		t.Errorf("the whole plan shows in a small window:\n%s", h.view())
	}
	h.press(tea.KeyEscape)
	h.until("the stop", func() bool { return h.idle() })
}

// TestContinuedChatShowsThePlan: the recap of a continued conversation
// ends with the plan it kept.
func TestContinuedChatShowsThePlan(t *testing.T) {
	b := newTestConv(t, reply(todoCall("- [>] Read the code\n- [ ] Write the tests\n")), reply("Reading."))
	h := newHarness(t, b, Options{})
	h.say("start")
	h.until("the answer", func() bool { return h.idle() && strings.Contains(h.printed(), "Reading.") })
	h2 := newHarness(t, b, Options{})
	if intro := h2.printed(); !strings.Contains(intro, "continuing session") || !strings.Contains(intro, "plan · 0 of 2 done\n  ▶ Read the code\n  ○ Write the tests") {
		t.Errorf("the recap:\n%s", intro)
	}
}
