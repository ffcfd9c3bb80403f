package chat

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/internal/termtext"
)

// key handles a key press. The order matters: a pending question or
// picker takes the keys first, then the completion list, then the chat's
// own keys; the rest goes to the editor.
func (m *Model) key(k tea.KeyPressMsg) tea.Cmd {
	s := k.String()
	if s != "ctrl+c" && m.quitArmed != 0 {
		m.quitArmed, m.hint = 0, ""
	}
	switch s {
	case "ctrl+c":
		return m.interrupt()
	case "esc":
		if m.userq != nil {
			m.declineUserQuestion() // userq.go
			return nil
		}
		if m.running {
			m.stop()
			return nil
		}
	}
	if m.userq != nil {
		return m.userQuestionKey(k)
	}
	if m.ask != nil {
		return m.answerKey(k)
	}
	if m.picker != nil {
		return m.pickerKey(s)
	}
	if m.comp.kind != 0 && len(m.comp.items) > 0 {
		switch s {
		case "tab":
			m.accept()
			return m.afterEdit()
		case "up":
			m.comp.move(-1)
			return nil
		case "down":
			m.comp.move(1)
			return nil
		case "enter":
			if m.comp.kind == '/' || m.comp.kind == '@' {
				// Enter on a command or path completes it; a complete
				// command name sends at once.
				it := m.comp.items[m.comp.sel]
				if m.comp.kind == '/' && m.comp.word == it.value {
					break
				}
				m.accept()
				return m.afterEdit()
			}
		}
	}
	switch s {
	case "esc":
		m.comp = completion{}
		return nil
	case "shift+tab":
		// The conversation owns the policy; the status line shows it.
		m.info.Policy = nextPolicy(m.info.Policy)
		m.conv.SetPolicy(m.info.Policy)
		return nil
	case "enter":
		return m.submit()
	case "ctrl+o":
		if m.last != nil {
			m.println(m.last.full(&m.st, m.width))
		}
		return nil
	case "ctrl+g":
		return m.openEditor()
	case "ctrl+v":
		return m.pasteClipboard()
	case "ctrl+x":
		m.unqueue()
		return nil
	case "up":
		if m.input.Line() == 0 {
			if v, ok := m.history.prev(m.input.Value()); ok {
				// At the end, to go on typing; ↑ in a recalled
				// message of several lines then moves up through it.
				m.input.SetValue(v)
				m.input.MoveToEnd()
			}
			return nil
		}
	case "down":
		if m.input.Line() == m.input.LineCount()-1 {
			if v, ok := m.history.next(); ok {
				m.input.SetValue(v)
				m.input.MoveToEnd()
			}
			return nil
		}
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(k)
	return tea.Batch(cmd, m.afterEdit())
}

// afterEdit updates the completion after the text changed, asking the
// conversation for the file list the first time an @ is typed.
func (m *Model) afterEdit() tea.Cmd {
	wasSlash := m.comp.kind == '/'
	m.complete()
	if m.comp.kind == '/' && !wasSlash {
		// The slash list opens: list the command files again, so one
		// added while the chat runs is offered.
		return m.reloadCustom("")
	}
	if m.comp.kind == '@' && m.files == nil && !m.filesAsked {
		m.filesAsked = true
		b, ctx := m.conv, m.ctx
		return func() tea.Msg {
			f, err := b.Files(ctx)
			return filesMsg{files: f, err: err}
		}
	}
	return nil
}

// submit sends the editor's text.
func (m *Model) submit() tea.Cmd {
	text := strings.TrimSpace(m.input.Value())
	if text == "" || m.attaching {
		return nil
	}
	m.comp = completion{}
	hist := m.history.add(text)
	if m.running && !strings.HasPrefix(text, "/") {
		m.input.Reset()
		m.enqueue(text)
		return hist
	}
	return tea.Batch(hist, m.send(text))
}

// interrupt is Ctrl+C: it stops a run, cancels a question or clears the
// editor; on an idle, empty prompt the first press arms and the second
// quits.
func (m *Model) interrupt() tea.Cmd {
	switch {
	case m.running:
		m.stop()
		return nil
	case m.picker != nil:
		m.picker = nil
		return nil
	case m.input.Value() != "":
		m.input.Reset()
		m.comp = completion{}
		return nil
	case m.quitArmed != 0:
		return m.exit()
	}
	m.quitArmed = int(time.Now().UnixNano()&0x7fffffff) | 1
	armed := m.quitArmed
	m.hint = "press ctrl+c again to quit"
	return tea.Tick(2*time.Second, func(time.Time) tea.Msg { return quitArmExpiredMsg{armed: armed} })
}

// exit quits the chat, leaving the conversation in the scrollback.
func (m *Model) exit() tea.Cmd {
	m.stop()
	m.println(m.st.dim.Render("  session " + m.info.Session + " · agent --continue resumes it"))
	return tea.Sequence(m.flushPrints(), func() tea.Msg { m.Close(); return tea.Quit() })
}

// answerKey handles keys while a write waits for approval: the answers,
// and the keys that scroll a body taller than the window.
func (m *Model) answerKey(k tea.KeyPressMsg) tea.Cmd {
	q := m.ask
	if q.typing {
		switch k.String() {
		case "enter":
			q.answer(agent.Deny, q.reason)
			m.ask = nil
		case "esc":
			q.typing, q.reason = false, ""
		case "backspace":
			if r := []rune(q.reason); len(r) > 0 {
				q.reason = string(r[:len(r)-1])
			}
		default:
			if k.Text != "" {
				q.reason += k.Text
			}
		}
		return nil
	}
	l := q.layout(&m.st, m.width, m.dialogRows())
	switch k.String() {
	case "up":
		q.scroll(l, -1)
		return nil
	case "down":
		q.scroll(l, 1)
		return nil
	case "pgup":
		q.scroll(l, -l.room+1)
		return nil
	case "pgdown", "space":
		q.scroll(l, l.room-1)
		return nil
	case "home":
		q.scroll(l, -len(l.body))
		return nil
	case "end":
		q.scroll(l, len(l.body))
		return nil
	}
	switch strings.ToLower(k.String()) {
	case "y", "enter":
		q.answer(agent.Allow, "")
	case "a":
		q.answer(agent.AllowAlways, "")
	case "n":
		q.answer(agent.Deny, "")
	case "r":
		q.typing = true
		return nil
	default:
		return nil
	}
	m.ask = nil
	return nil
}

// pickerKey handles keys while a picker is open.
func (m *Model) pickerKey(s string) tea.Cmd {
	p := m.picker
	switch s {
	case "up", "k":
		p.sel = (p.sel - 1 + len(p.choices)) % len(p.choices)
	case "down", "j":
		p.sel = (p.sel + 1) % len(p.choices)
	case "esc", "q":
		m.picker = nil
	case "enter":
		m.picker = nil
		c := p.choices[p.sel]
		m.println(m.st.dim.Render("  /" + p.command + " " + termtext.Drawn(c.Label)))
		cmd, _ := m.command(p.command)
		return m.runCommand(cmd, c.Value)
	}
	return nil
}

// nextPolicy is Shift+Tab's cycle: ask → auto → plan → ask. A policy from
// the command line outside the cycle (never) goes back to ask.
func nextPolicy(p agent.Policy) agent.Policy {
	switch p {
	case agent.PolicyAsk:
		return agent.PolicyAuto
	case agent.PolicyAuto:
		return PolicyPlan
	}
	return agent.PolicyAsk
}

// openEditor edits the message in $EDITOR (Ctrl+G): the text goes to a
// temporary file (in a command: no I/O in Update), the program hands the
// terminal to the editor, and the file's text comes back into the editor.
func (m *Model) openEditor() tea.Cmd {
	find := m.opts.Editor
	if find == nil {
		find = func() ([]string, error) { return []string{"vi"}, nil }
	}
	text := m.input.Value()
	return func() tea.Msg {
		editor, err := find()
		if err != nil {
			return editorDoneMsg{err: err}
		}
		f, err := os.CreateTemp("", "agent-message-*.md")
		if err != nil {
			return editorDoneMsg{err: err}
		}
		_, err = f.WriteString(text)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(f.Name())
			return editorDoneMsg{err: err}
		}
		return editorStartMsg{file: f.Name(), editor: editor}
	}
}

// runEditor hands the terminal to the editor on file, with env (a PATH
// without the project's folders: what the editor runs in turn is not a
// program a command planted).
func runEditor(msg editorStartMsg, env []string) tea.Cmd {
	args := msg.editor
	c := exec.Command(args[0], append(slices.Clone(args[1:]), msg.file)...)
	c.Env = env
	return tea.ExecProcess(c, func(err error) tea.Msg {
		defer os.Remove(msg.file)
		if err != nil {
			return editorDoneMsg{err: err}
		}
		b, err := os.ReadFile(msg.file)
		return editorDoneMsg{text: string(b), err: err}
	})
}
