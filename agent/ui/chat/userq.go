package chat

import (
	"context"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentcli/agent/internal/termtext"
	"github.com/agentcli/agent/tools"
)

// UserAsker is the loop's tools.UserAsker in the chat: the model's
// question (ask_user) is shown as a choice list. Like Asker, it is safe
// to call from the loop's goroutine.
type UserAsker struct {
	inbox chan<- tea.Msg
	quit  <-chan struct{}
}

// UserAsker returns the asker of the model's questions in this chat,
// for the loop.
func (m *Model) UserAsker() UserAsker { return UserAsker{inbox: m.inbox, quit: m.quit} }

// AskUser shows q in the chat and returns the person's answer.
func (a UserAsker) AskUser(ctx context.Context, q tools.UserQuestion) (tools.UserAnswer, error) {
	reply := make(chan tools.UserAnswer, 1)
	return waitInChat(ctx, a.inbox, a.quit, userAskMsg{q: q, reply: reply}, reply)
}

// waitInChat sends msg to the chat and waits for the answer on reply, or
// for ctx to end (the person stopped the run) or the chat to close.
func waitInChat[A any](ctx context.Context, inbox chan<- tea.Msg, quit <-chan struct{}, msg tea.Msg, reply <-chan A) (A, error) {
	var zero A
	select {
	case inbox <- msg:
	case <-ctx.Done():
		return zero, ctx.Err()
	case <-quit:
		return zero, context.Canceled
	}
	select {
	case v := <-reply:
		return v, nil
	case <-ctx.Done():
		return zero, ctx.Err()
	case <-quit:
		return zero, context.Canceled
	}
}

// userAskMsg is the model's question waiting for the person; the answer
// goes to reply.
type userAskMsg struct {
	q     tools.UserQuestion
	reply chan<- tools.UserAnswer
}

// userQuestion is the model's question on screen: the option under the
// cursor, those chosen (when several may be), and the person's own words
// typed so far.
type userQuestion struct {
	userAskMsg
	sel    int
	chosen map[int]bool
	text   string
}

// key takes a key while the question waits and returns the answer once
// there is one. Esc (declining) is the chat's key handler's, before the
// run's stop.
func (u *userQuestion) key(k tea.KeyPressMsg) (tools.UserAnswer, bool) {
	n := len(u.q.Options)
	switch k.String() {
	case "up":
		if n > 0 {
			u.sel = (u.sel - 1 + n) % n
		}
	case "down":
		if n > 0 {
			u.sel = (u.sel + 1) % n
		}
	case "space":
		if u.q.Multiple && u.text == "" {
			if u.chosen == nil {
				u.chosen = map[int]bool{}
			}
			u.chosen[u.sel] = !u.chosen[u.sel]
		} else {
			u.text += " "
		}
	case "backspace":
		if r := []rune(u.text); len(r) > 0 {
			u.text = string(r[:len(r)-1])
		}
	case "enter":
		return u.answer()
	default:
		u.text += k.Text
	}
	return tools.UserAnswer{}, false
}

// answer is the person's own words, else the options chosen (or the
// one under the cursor); a question without options waits for words.
func (u *userQuestion) answer() (tools.UserAnswer, bool) {
	if text := strings.TrimSpace(u.text); text != "" {
		return tools.UserAnswer{Text: text}, true
	}
	if len(u.q.Options) == 0 {
		return tools.UserAnswer{}, false
	}
	var chosen []string
	for i, o := range u.q.Options {
		if u.chosen[i] {
			chosen = append(chosen, o)
		}
	}
	if len(chosen) == 0 {
		chosen = []string{u.q.Options[u.sel]}
	}
	return tools.UserAnswer{Chosen: chosen}, true
}

// view draws the question, its options with the cursor (and boxes when
// several may be chosen), the line for the person's own words and the
// keys, in the dialog's frame, within rows.
func (u *userQuestion) view(st *styles, width, rows int) string {
	w := innerWidth(width)
	var lines []string
	question := strings.Split(ansi.Wrap(st.warn.Render("? ")+st.bold.Render(termtext.Drawn(u.q.Question)), w, ""), "\n")
	if room := max(rows-dialogBorder-len(u.q.Options)-3, 1); len(question) > room {
		question = append(question[:room-1], st.dim.Render("…"))
	}
	lines = append(lines, question...)
	for i, o := range u.q.Options {
		cursor, style := "  ", st.prose
		if i == u.sel && u.text == "" {
			cursor, style = st.selected.Render("› "), st.selected
		}
		box := ""
		if u.q.Multiple {
			box = "[ ] "
			if u.chosen[i] {
				box = "[x] "
			}
		}
		lines = append(lines, ansi.Truncate(cursor+style.Render(box+termtext.Drawn(termtext.OneLine(o))), w, "…"))
	}
	own := "or type your own answer: "
	if len(u.q.Options) == 0 {
		own = "your answer: "
	}
	lines = append(lines, strings.Split(ansi.Hardwrap(st.dim.Render(own)+termtext.Drawn(u.text)+"▏", w, true), "\n")...)
	lines = append(lines, strings.Split(ansi.Wrap(u.keys(st), w, ""), "\n")...)
	return st.dialog.Width(min(width, 200)).Render(strings.Join(lines, "\n"))
}

// keys names the keys the question takes.
func (u *userQuestion) keys(st *styles) string {
	var k []string
	if len(u.q.Options) > 0 {
		k = append(k, st.key.Render("↑↓")+" move")
	}
	if u.q.Multiple {
		k = append(k, st.key.Render("space")+" choose")
	}
	return strings.Join(append(k, st.key.Render("enter")+" answers", st.key.Render("esc")+" declines"), "  ")
}

// asked puts the question and its answer (a, drawn) into the
// scrollback, under the card of the call that asked it, wrapped under
// its mark.
func (m *Model) asked(a string) {
	line := m.st.dim.Render("  ? ") + hang(oneLine(termtext.Drawn(m.userq.q.Question))+m.st.dim.Render(" → ")+a, m.width, 4)
	m.live = append(m.live, item{text: line})
	m.drain()
}

// userQuestionKey handles a key while the model's question waits; an
// answer goes to the loop and stays in the scrollback under the question.
func (m *Model) userQuestionKey(k tea.KeyPressMsg) tea.Cmd {
	u := m.userq
	ans, ok := u.key(k)
	if !ok {
		return nil
	}
	shown := ans.Text
	if len(ans.Chosen) > 0 {
		shown = strings.Join(ans.Chosen, ", ")
	}
	m.asked(termtext.Drawn(oneLine(shown)))
	u.reply <- ans
	m.userq = nil
	return nil
}

// declineUserQuestion is Esc while the model's question waits.
func (m *Model) declineUserQuestion() {
	m.asked(m.st.dim.Render("(declined)"))
	m.userq.reply <- tools.UserAnswer{Declined: true}
	m.userq = nil
}
