package chat

import (
	"context"
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/internal/termtext"
)

const (
	eventToolStart = agent.EventToolStart
	eventCompact   = agent.EventCompact
	eventThought   = agent.EventThought
)

// send takes a message the user typed: a slash command, or a prompt for
// the model (with its @path attachments read first).
func (m *Model) send(text string) tea.Cmd {
	if strings.HasPrefix(text, "/") && !strings.HasPrefix(text, "//") {
		m.input.Reset()
		return m.slash(text)
	}
	return m.sendPrompt(text, m.expandPastes(text), true)
}

// sendPrompt sends a message to the model: shown as typed, prompt with
// the pastes put back. Its @paths are read first, in a command; the
// message is shown and sent once they all could be (fromEditor: it is
// the editor's text, cleared then, and kept there when one could not).
func (m *Model) sendPrompt(shown, prompt string, fromEditor bool) tea.Cmd {
	refs := attachRefs(shown, m.files)
	if len(refs) == 0 {
		m.sent(shown, fromEditor)
		m.println(m.userLine(shown))
		return m.startRun(prompt)
	}
	m.attaching = true
	conv, ctx, root := m.conv, m.ctx, m.opts.Root
	lenient := fromEditor && shown == m.flagged
	return func() tea.Msg {
		res, err := resolveAttachments(ctx, conv, root, prompt, refs, lenient)
		return attachedMsg{prompt: res.prompt, shown: shown, notes: res.notes, fromEditor: fromEditor, raw: prompt, err: err}
	}
}

// sent clears the editor of a message that goes to the model.
func (m *Model) sent(shown string, fromEditor bool) {
	if fromEditor {
		if m.input.Value() == shown || strings.TrimSpace(m.input.Value()) == shown {
			m.input.Reset()
		}
		m.pastes = nil
	}
}

// attached sends a message whose @paths were read, or says in one line
// why one could not be, keeping the message to edit.
func (m *Model) attached(msg attachedMsg) tea.Cmd {
	m.attaching = false
	var f flagged
	if msg.err != nil && errors.As(msg.err, &f) && msg.fromEditor {
		m.flagged = msg.shown
		m.println(m.errorLine(fmt.Errorf("%w (the message was not sent; Enter again sends it with the @path as plain text)", msg.err)))
		return nil
	}
	if msg.err != nil {
		m.println(m.errorLine(fmt.Errorf("%w (the message was not sent)", msg.err)))
		if !msg.fromEditor && m.input.Value() == "" {
			m.input.SetValue(msg.raw)
			m.input.MoveToEnd()
		}
		return nil
	}
	m.sent(msg.shown, msg.fromEditor)
	m.flagged = ""
	m.println(m.userLine(msg.shown))
	for _, n := range msg.notes {
		m.println(m.st.dim.Render("  ⎘ " + termtext.Drawn(n)))
	}
	return m.startRun(msg.prompt)
}

// userLine renders the user's message for the scrollback.
func (m *Model) userLine(s string) string {
	lines := strings.Split(termtext.Drawn(s), "\n")
	refs := attachRefs(s, m.files)
	for i, l := range lines {
		mark := "  "
		if i == 0 {
			mark = m.st.userMark.Render("› ")
		}
		lines[i] = mark + m.chips(l, refs, m.st.user)
	}
	return "\n" + strings.Join(lines, "\n")
}

// startRun runs the loop on prompt in a goroutine of its own; its events
// come back through the inbox.
func (m *Model) startRun(prompt string) tea.Cmd {
	if m.running {
		m.println(m.st.dim.Render("  (still working: esc stops the current reply)"))
		return nil
	}
	m.run++
	id := m.run
	ctx, cancel := context.WithCancel(m.ctx)
	m.cancel = cancel
	m.running = true
	m.turnStart = m.opts.Now()
	m.plan.begin(m.conv.Todos())
	m.errSeen = false
	m.iter = 0
	m.md = newMarkdown(&m.st, m.width)
	m.live = nil
	m.cards = map[string]*card{}
	b, inbox, quit := m.conv, m.inbox, m.quit
	deliver := func(msg tea.Msg) {
		select {
		case inbox <- msg:
		case <-quit:
		}
	}
	run := func() tea.Msg {
		out, err := b.Run(ctx, prompt, func(e agent.Event) { deliver(eventMsg{run: id, event: e}) })
		// Through the inbox too, so the end comes after every event.
		deliver(runDoneMsg{run: id, outcome: out, err: err})
		return nil
	}
	return tea.Batch(run, m.tick())
}

// stop cancels the running generation or tool. The loop answers the
// calls left with TOOL_SKIPPED and returns; the chat stays usable.
func (m *Model) stop() {
	if m.cancel != nil {
		m.cancel()
	}
	if m.ask != nil {
		m.ask = nil
	}
	m.userq = nil
}

// event shows one event of the loop.
func (m *Model) event(e agent.Event) {
	if e.Iteration > 0 {
		m.iter = e.Iteration
	}
	if e.Type != eventThought && m.thought.Len() > 0 {
		for _, l := range strings.Split(strings.TrimSpace(m.thought.String()), "\n") {
			if l = strings.TrimSpace(l); l != "" {
				m.println(m.st.dim.Render("  ∴ " + termtext.Drawn(l)))
			}
		}
		m.thought.Reset()
	}
	switch e.Type {
	case agent.EventText:
		m.prose(m.md.feed(e.Text))
	case eventThought:
		// The model's separate reasoning: gathered, then shown dimmed
		// apart from the answer; never read for calls.
		m.thought.WriteString(e.Text)
		return
	case agent.EventOutput:
		if e.Call != nil {
			if c := m.cards[e.Call.ID]; c != nil {
				c.addOutput(e.Text)
			}
		}
	case agent.EventCall:
		m.prose(m.md.flush())
		if e.Call == nil {
			return
		}
		c := newCard(e.Call, m.opts.Now())
		m.cards[c.id] = c
		m.last = c
		m.live = append(m.live, item{card: c})
	case eventToolStart:
		if e.Call != nil {
			if c := m.cards[e.Call.ID]; c != nil {
				c.running = true
				c.started = m.opts.Now()
			}
		}
	case agent.EventResult:
		if e.Result == nil {
			return
		}
		c := m.cards[e.Result.ID]
		if c == nil {
			// A broken call never had a card: give it one now.
			c = &card{id: e.Result.ID, tool: e.Result.Tool, params: keyParams(e.Result.Params)}
			m.live = append(m.live, item{card: c})
		}
		r := *e.Result
		c.result = &r
		c.running = false
		m.last = c
		m.drain()
	case agent.EventUsage:
		if e.Usage != nil {
			m.info.TokensIn += e.Usage.InputTokens
			m.info.TokensOut += e.Usage.OutputTokens
		}
		// The reply is over: its calls run now.
		m.prose(m.md.flush())
		for _, it := range m.live {
			if it.card != nil && it.card.result == nil && !it.card.running {
				it.card.running = true
				it.card.started = m.opts.Now()
			}
		}
	case agent.EventRetry:
		m.md = newMarkdown(&m.st, m.width)
		// Line by line: a style pads a block of lines to its widest.
		rows := strings.Split(hang(oneLine(termtext.Drawn(retryText(e))), m.width, 4), "\n")
		for i, r := range rows {
			rows[i] = m.st.dim.Render(r)
		}
		m.println(m.st.warn.Render("  ↻ ") + strings.Join(rows, "\n"))
	case eventCompact:
		m.println(m.st.dim.Render("  ⋯ the conversation was compacted to fit the context"))
	case agent.EventTodo:
		m.plan.set(e.Todos) // todo.go
	case agent.EventError:
		m.prose(m.md.flush())
		if e.Err != nil && !errors.Is(e.Err, context.Canceled) {
			m.println(m.errorLine(e.Err))
			m.errSeen = true
		}
	case agent.EventDone:
		m.prose(m.md.flush())
	case agent.EventNested:
		m.nested(e) // nested.go
	case agent.EventHook:
		m.hook(e) // hooks.go
	}
}

func retryText(e agent.Event) string {
	r := e.Retry
	if r == nil {
		return "retrying"
	}
	s := "retrying (" + strings.ReplaceAll(r.Reason, "_", " ")
	if r.Attempts > 0 {
		s += fmt.Sprintf(", attempt %d of %d", r.Attempt+1, r.Attempts)
	}
	if r.Wait > 0 {
		s += fmt.Sprintf(", in %s", formatDuration(r.Wait))
	}
	s += ")"
	if r.Message != "" {
		s += ": " + r.Message
	}
	return s
}

// prose takes finished blocks of the reply: printed at once unless a card
// of this iteration is still open above them, so the scrollback keeps
// the order in which things happened.
func (m *Model) prose(blocks []string) {
	for _, b := range blocks {
		m.live = append(m.live, item{text: b})
	}
	m.drain()
}

// drain prints the live items from the top while they are finished.
func (m *Model) drain() {
	n := 0
	for _, it := range m.live {
		if it.card != nil && it.card.result == nil {
			break
		}
		if it.card != nil {
			m.println(it.card.view(&m.st, "", m.opts.Now(), m.width))
		} else {
			m.println(it.text)
		}
		n++
	}
	m.live = append(m.live[:0], m.live[n:]...)
}

// finish ends the run in the chat.
func (m *Model) finish(out *agent.Outcome, err error) {
	m.running = false
	m.ask, m.userq = nil, nil
	if m.cancel != nil {
		m.cancel()
		m.cancel = nil
	}
	if m.md != nil {
		m.prose(m.md.flush())
	}
	// Cards still open when a run stops were never answered on screen.
	for _, it := range m.live {
		if it.card != nil && it.card.result == nil {
			it.card.result = &agent.CallResult{ID: it.card.id, Tool: it.card.tool}
			it.card.result.Result.Code = "TOOL_SKIPPED"
			it.card.result.Result.Message = "stopped"
		}
	}
	m.drain()
	m.md = nil
	m.planEnded()
	switch {
	case err == nil:
	case errors.Is(err, context.Canceled):
		m.println(m.st.dim.Render("  ⏹ stopped"))
	case errors.Is(err, agent.ErrMaxIterations):
		m.println(m.st.warn.Render("  ! ") + m.st.dim.Render("stopped at the iteration limit; send a message to go on"))
	case !m.errSeen:
		m.println(m.errorLine(err))
	}
	m.info = m.mergeInfo(m.conv.Info())
}

// mergeInfo keeps the token counts the chat has been adding up when the
// conversation does not count them itself.
func (m *Model) mergeInfo(i Info) Info {
	if i.TokensIn == 0 && i.TokensOut == 0 {
		i.TokensIn, i.TokensOut = m.info.TokensIn, m.info.TokensOut
	}
	return i
}

// errorLine is a failure as one calm line, wrapped at word boundaries
// under its mark when longer than the window.
func (m *Model) errorLine(err error) string {
	return m.st.fail.Render("  ✗ ") + hang(oneLine(termtext.Drawn(err.Error())), m.width, 4)
}

// hang wraps one line of text to width at word boundaries (a word longer
// than a line is cut), for a line that starts indent columns in: the
// lines after the first are indented as much.
func hang(s string, width, indent int) string {
	w := max(width-indent-1, 20)
	if ansi.StringWidth(s) <= w {
		return s
	}
	rows := strings.Split(ansi.Wrap(s, w, ""), "\n")
	for i, r := range rows {
		rows[i] = strings.TrimRight(r, " ")
	}
	return strings.Join(rows, "\n"+strings.Repeat(" ", indent))
}

// oneLine folds text onto one line.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}
