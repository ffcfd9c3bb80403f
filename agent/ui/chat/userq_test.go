package chat

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

const askDatabase = `<tool_call name="ask_user"><question>Which database?</question><options>PostgreSQL
SQLite
both</options></tool_call>`

// askedTurn runs a turn whose model asks askCall, answers it with keys,
// and returns what the model got back and what stayed in the scrollback.
func askedTurn(t *testing.T, askCall string, keys func(h *harness)) (toModel, printed string) {
	t.Helper()
	b := newTestConv(t, reply(askCall), reply("Noted."))
	h := newHarness(t, b, Options{})
	h.say("set it up")
	h.until("the question", func() bool { return h.m.userq != nil })
	if v := h.view(); !strings.Contains(v, "? Which database?") || !strings.Contains(v, "› ") || !strings.Contains(v, "SQLite") {
		t.Errorf("the question:\n%s", v)
	}
	keys(h)
	h.until("the answer", func() bool { return h.idle() && strings.Contains(h.printed(), "Noted.") })
	reqs := b.script.Requests()
	msgs := reqs[len(reqs)-1].Messages
	return msgs[len(msgs)-1].Text, h.printed()
}

// TestQuestionTakesArrowsAndEnter: ↓ moves to the next option and Enter
// answers with it; the model gets the option, the scrollback keeps the
// question and its answer.
func TestQuestionTakesArrowsAndEnter(t *testing.T) {
	toModel, printed := askedTurn(t, askDatabase, func(h *harness) {
		h.press(tea.KeyDown)
		if v := h.view(); !strings.Contains(v, "› SQLite") {
			t.Errorf("after ↓:\n%s", v)
		}
		h.press(tea.KeyEnter)
	})
	if !strings.Contains(toModel, `the user chose "SQLite"`) {
		t.Errorf("the model got:\n%s", toModel)
	}
	card, asked := strings.Index(printed, "ask_user question=Which database?"), strings.Index(printed, "? Which database? → SQLite")
	if card < 0 || asked < card {
		t.Errorf("the question and its answer are not in the scrollback under the call's card:\n%s", printed)
	}
}

// TestQuestionTakesSeveral: space chooses each option of a question
// that takes several; Enter answers with them in their order.
func TestQuestionTakesSeveral(t *testing.T) {
	several := strings.Replace(askDatabase, "</options>", "</options><multiple>true</multiple>", 1)
	toModel, _ := askedTurn(t, several, func(h *harness) {
		h.press(tea.KeyUp) // to the last
		h.press(tea.KeySpace)
		h.press(tea.KeyDown) // round to the first
		h.press(tea.KeySpace)
		if v := h.view(); !strings.Contains(v, "› [x] PostgreSQL") || !strings.Contains(v, "[x] both") || !strings.Contains(v, "[ ] SQLite") {
			t.Errorf("after choosing two:\n%s", v)
		}
		h.press(tea.KeyEnter)
	})
	if !strings.Contains(toModel, `the user chose "PostgreSQL", "both"`) {
		t.Errorf("the model got:\n%s", toModel)
	}
}

// TestQuestionTakesOwnWords: typing gives an answer in the person's own
// words, space and backspace included.
func TestQuestionTakesOwnWords(t *testing.T) {
	toModel, _ := askedTurn(t, askDatabase, func(h *harness) {
		h.typeText("flat filesX")
		h.press(tea.KeyBackspace)
		if v := h.view(); !strings.Contains(v, "or type your own answer: flat files▏") {
			t.Errorf("while typing:\n%s", v)
		}
		h.press(tea.KeyEnter)
	})
	if !strings.Contains(toModel, "their own words") || !strings.Contains(toModel, "flat files") {
		t.Errorf("the model got:\n%s", toModel)
	}
}

// TestQuestionDeclinedWithEsc: Esc declines the question, not the turn:
// the model is told and goes on.
func TestQuestionDeclinedWithEsc(t *testing.T) {
	toModel, printed := askedTurn(t, askDatabase, func(h *harness) { h.press(tea.KeyEscape) })
	if !strings.Contains(toModel, "the user declined to answer") {
		t.Errorf("the model got:\n%s", toModel)
	}
	if !strings.Contains(printed, "? Which database? → (declined)") || strings.Contains(printed, "stopped") {
		t.Errorf("the scrollback:\n%s", printed)
	}
}
