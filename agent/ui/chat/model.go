package chat

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"

	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/startup"
	"github.com/agentcli/agent/tools/programs"
)

// PolicyPlan is the read-only mode of Shift+Tab: every write refused and
// the model told to plan.
const PolicyPlan = agent.PolicyPlan

// textareaPkg is the editor's package, whose messages go to the editor.
const textareaPkg = "charm.land/bubbles/v2/textarea"

// Options configure the chat.
type Options struct {
	// Conversation is the conversation the chat shows.
	Conversation Conversation
	// Prompt, when set, is sent as soon as the chat opens.
	Prompt string
	// Root is the project folder: custom commands are read from its
	// .agent/commands, the input history kept in its .agent/history.
	Root string
	// ConfigDir is the user's config folder for the agent
	// ($XDG_CONFIG_HOME/agent); its commands/ folder has custom commands
	// too. Empty for none.
	ConfigDir string
	// ReadCommand reads the custom command file name (review.md): the
	// user's own (in ConfigDir/commands) when user is set, else the
	// project's (in .agent/commands). A cloned repository writes the
	// project's, so cmd/agent reads them under the file tools' rules;
	// the error says which file and why. nil lists no custom commands.
	ReadCommand func(user bool, name string) ([]byte, error)
	// Editor returns the command Ctrl+G runs, the file's path added
	// ($VISUAL or $EDITOR, its program already found); nil means vi.
	Editor func() ([]string, error)
	// Tmux is the tmux program asked about true colour inside tmux;
	// "" never asks.
	Tmux string
	// Programs finds the programs the chat runs itself (the clipboard's
	// on Ctrl+V) and gives them, the editor and tmux a PATH without the
	// folders a sandboxed command may write; nil means the plain PATH.
	Programs *programs.Resolver
	// Width is the terminal width until the first resize (tests).
	Width int
	// Now is the clock; time.Now when nil.
	Now func() time.Time
	// Notify is how the chat rings when the terminal lost focus and a
	// long turn ended or a question waits: NotifyWay of chat.notify;
	// "" never rings.
	Notify string
}

// Model is the chat's root model.
type Model struct {
	// thought gathers the model's separate reasoning of the reply so far.
	thought strings.Builder

	opts     Options
	conv     Conversation
	commands []Command // the conversation's slash commands
	st       styles
	dark     bool
	width    int
	height   int

	ctx   context.Context
	inbox chan tea.Msg
	quit  chan struct{}

	input      textarea.Model
	history    *history
	pastes     []string // large pastes, shown in the editor as placeholders
	queue      []queued // messages typed while a reply streams
	attaching  bool     // a message's @paths are being read
	flagged    string   // the message whose @path was just refused: Enter again sends it as text
	custom     map[string]customCommand
	comp       completion
	files      []string // project files for @path completion; nil until asked
	filesAsked bool
	picker     *picker

	// the run
	run     int // id of the current (or last) run
	running bool
	cancel  context.CancelFunc
	md      *markdown
	live    []item // what the current iteration shows until it can be printed
	cards   map[string]*card
	last    *card // the last card, for the toggle key
	ask     *question
	errSeen bool // the run's error has been shown
	iter    int
	info    Info
	frame   int

	// working with the person: the model's question (ask_user) and
	// plan (todo_write), the bell, and when the turn began (for the bell
	// at its end)
	userq     *userQuestion
	plan      plan
	bell      bell
	turnStart time.Time

	// printing into the scrollback, strictly in order
	pending  []string
	printing bool
	printed  []string // the last things printed, for tests
	// frames: the heights of the frames drawn lately, one of which the
	// renderer may still show when a print lands.
	frames recentFrames

	quitArmed int
	// bannerShown: prepaint drew the banner.
	bannerShown bool
	// tmuxCheck: ask tmux about true colour after the first frame.
	tmuxCheck bool
	// profile is the terminal's colours, for what is printed; Unknown
	// (tests) prints styles as they are.
	profile colorprofile.Profile
	hint    string

	// The editor's and status line's last renders: while a reply streams
	// neither changes, and drawing the editor costs more than the reply.
	inputKey, inputView   string
	inputCursor           *tea.Cursor
	statusKey, statusView string
	workKey, workView     string
}

// item is one entry of the live area: a rendered block of prose or a card.
type item struct {
	text string
	card *card
}

// New builds the chat. It reads the input history and the custom
// commands; it starts nothing.
func New(ctx context.Context, o Options) *Model {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Width <= 0 {
		o.Width = 80
	}
	m := &Model{
		opts:     o,
		conv:     o.Conversation,
		commands: o.Conversation.Commands(),
		dark:     true,
		width:    o.Width,
		ctx:      ctx,
		inbox:    make(chan tea.Msg, 256),
		quit:     make(chan struct{}),
		cards:    map[string]*card{},
		history:  loadHistory(o.Root),
		custom:   loadCustomCommands(o.Root, o.ConfigDir, o.ReadCommand),
	}
	m.st = newStyles(m.dark)
	m.bell.way = o.Notify
	m.info = o.Conversation.Info()
	m.input = newEditor(m.width)
	return m
}

// Asker returns the approval asker of this chat, for the loop.
func (m *Model) Asker() Asker { return Asker{inbox: m.inbox, quit: m.quit} }

// Init starts listening to the loop and sends the initial prompt.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{m.listen(), m.input.Focus(), tea.RequestBackgroundColor}
	cmds = append(cmds, settleTick())
	if !m.bannerShown {
		m.println(m.intro())
	}
	if why := m.history.refusal(""); why != "" {
		m.println(m.errorLine(errors.New(why)))
	}
	if p := strings.TrimSpace(m.opts.Prompt); p != "" {
		cmds = append(cmds, m.send(p))
	}
	cmds = append(cmds, m.flushPrints())
	return tea.Batch(cmds...)
}

// intro is what the chat prints first: the banner, and the recent turns
// of the conversation it continues.
func (m *Model) intro() string {
	s := m.st.dim.Render(m.banner())
	if r := m.recap(); r != "" {
		s += "\n" + r
	}
	return s
}

func (m *Model) banner() string {
	return "agent · " + m.info.Folder + " · /help for commands, Ctrl+C twice to quit"
}

// listen waits for the next message from the loop (events, questions,
// the end of a run).
func (m *Model) listen() tea.Cmd {
	inbox, quit := m.inbox, m.quit
	return func() tea.Msg {
		select {
		case msg := <-inbox:
			return msg
		case <-quit:
			return nil
		}
	}
}

// Close ends the chat's waits: a pending question is refused and the
// loop's events are no longer read. Safe to call more than once.
func (m *Model) Close() {
	select {
	case <-m.quit:
	default:
		close(m.quit)
	}
	if m.cancel != nil {
		m.cancel()
	}
}

// printedMsg says that the last print reached the terminal.
type printedMsg struct{}

// println queues finished text for the scrollback.
func (m *Model) println(s string) {
	m.pending = append(m.pending, s)
}

// flushPrints prints what is queued, one batch at a time: Bubble Tea runs
// commands concurrently, so two prints in flight could swap places.
func (m *Model) flushPrints() tea.Cmd {
	if m.printing || len(m.pending) == 0 {
		return nil
	}
	s := m.downsample(strings.Join(m.pending, "\n"))
	m.pending = m.pending[:0]
	m.printing = true
	m.printed = append(m.printed, s)
	if len(m.printed) > 200 {
		m.printed = append(m.printed[:0], m.printed[len(m.printed)-100:]...)
	}
	var cmds []tea.Cmd
	for _, c := range chunkRows(s, m.width, m.printRoom()) {
		cmds = append(cmds, tea.Println(c))
	}
	return tea.Sequence(append(cmds, func() tea.Msg { return printedMsg{} })...)
}

// printRoom is how many terminal rows one print may take. Bubble Tea
// prints above the frame by scrolling the screen up as many rows as the
// print takes and inserting it there: a print taller than the room above
// the frame scrolls the frame itself into the scrollback (a stale copy of
// the input and status line) and lands beyond the screen's top. So a tall
// print goes in parts that each fit above the tallest frame drawn lately.
func (m *Model) printRoom() int {
	if m.height <= 0 {
		return 0 // no size known yet: one print
	}
	return max(m.height-m.frames.tallest(time.Now())-1, 1)
}

// Printed returns what the chat printed into the scrollback (the last
// hundred or so prints), for tests.
func (m *Model) Printed() string { return strings.Join(m.printed, "\n") }

// Update handles one message.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.update(msg)
	if p := m.flushPrints(); p != nil {
		cmd = tea.Batch(cmd, p)
	}
	return m, cmd
}

func (m *Model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.resize(msg.Width, msg.Height)
	case tea.BackgroundColorMsg:
		m.setDark(msg.IsDark())
	case tea.ColorProfileMsg:
		m.profile = msg.Profile
	case settledMsg:
		startup.ResumeGC()
		// Bubble Tea subscribes to SIGWINCH in a goroutine of its own, so
		// a resize in the first moments can be missed: ask for the size
		// once more.
		if m.tmuxCheck && m.opts.Tmux != "" {
			return tea.Batch(tmuxTrueColor(m.ctx, m.opts.Tmux, m.helperEnv()), tea.RequestWindowSize)
		}
		return tea.RequestWindowSize
	case printedMsg:
		m.printing = false
	case tea.KeyPressMsg:
		return m.key(msg)
	case tea.PasteMsg:
		m.paste(msg.Content)
	case eventMsg:
		if msg.run == m.run {
			m.event(msg.event)
			return tea.Batch(m.listen(), m.notify(msg.event))
		}
		return m.listen()
	case askMsg:
		m.ask = &question{askMsg: msg}
		return m.listen()
	case userAskMsg:
		m.userq = &userQuestion{userAskMsg: msg}
		return m.listen()
	case tea.FocusMsg, tea.BlurMsg:
		m.focus(msg)
	case runDoneMsg:
		if msg.run == m.run {
			m.finish(msg.outcome, msg.err)
		}
		return tea.Batch(m.listen(), m.sendQueued())
	case tickMsg:
		if m.running {
			m.frame++
			return m.tick()
		}
	case commandDoneMsg:
		return m.commandDone(msg)
	case filesMsg:
		m.files = msg.files
		if m.files == nil {
			m.files = []string{}
		}
		m.complete()
	case historyRefusedMsg:
		if why := m.history.refusal(msg.why); why != "" {
			m.println(m.errorLine(errors.New(why)))
		}
	case attachedMsg:
		return m.attached(msg)
	case customMsg:
		if msg.err != nil {
			m.println(m.errorLine(msg.err))
			return nil
		}
		m.println(m.userLine(msg.shown))
		return m.startRun(msg.text)
	case customsMsg:
		m.custom = msg.custom
		if msg.retry != "" {
			return m.slashCommand(msg.retry, true)
		}
		m.complete()
	case editorStartMsg:
		return runEditor(msg, m.helperEnv())
	case clipboardErrMsg:
		m.println(m.errorLine(msg.err))
	case editorDoneMsg:
		if msg.err != nil {
			m.println(m.errorLine(msg.err))
		} else {
			m.input.SetValue(strings.TrimRight(msg.text, "\n"))
		}
	case quitArmExpiredMsg:
		if msg.armed == m.quitArmed {
			m.quitArmed = 0
			m.hint = ""
		}
	default:
		// Only the editor's own messages (a paste its key binding read
		// from the clipboard) go to it: its Update redraws it whatever
		// the message, and Bubble Tea's own, like each printed line, pass
		// through here too.
		if t := reflect.TypeOf(msg); t != nil && t.PkgPath() == textareaPkg {
			var cmd tea.Cmd
			m.input, cmd = m.input.Update(msg)
			return cmd
		}
	}
	return nil
}

// setDark styles the chat for a dark or a light background.
func (m *Model) setDark(dark bool) {
	m.dark = dark
	m.st = newStyles(dark)
	m.input.SetStyles(editorStyles(dark))
	if m.md != nil {
		m.md.restyle()
	}
}

func (m *Model) resize(w, h int) {
	if w > 0 {
		m.width = w
	}
	m.height = h
	m.input.SetWidth(max(m.width-1, 10))
	if m.md != nil {
		m.md.width = m.width
	}
}

// tick animates the spinner while a run is going.
func (m *Model) tick() tea.Cmd {
	return tea.Tick(100*time.Millisecond, func(t time.Time) tea.Msg { return tickMsg(t) })
}

var spinnerFrames = [...]string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// View draws the live part: the open reply, running cards, a pending
// question or picker, the editor, completions and the status line.
func (m *Model) View() tea.View {
	select {
	case <-m.quit:
		// Quitting: the last frame stays on the terminal, and the
		// conversation is already printed above it; an empty input box
		// and status line left in the scrollback are noise.
		return tea.NewView("")
	default:
	}
	var top strings.Builder
	// What waits to be printed stays in sight meanwhile, unless it would
	// make the frame taller than the window.
	if m.height <= 0 || rowCount(m.pending, m.width) < m.height/2 {
		for _, s := range m.pending {
			top.WriteString(s)
			top.WriteByte('\n')
		}
	}
	now := m.opts.Now()
	frame := spinnerFrames[m.frame%len(spinnerFrames)]
	for _, it := range m.live {
		if it.card != nil {
			top.WriteString(it.card.render(&m.st, frame, now, m.width, m.ask != nil || m.userq != nil))
		} else {
			top.WriteString(it.text)
		}
		top.WriteByte('\n')
	}
	if m.md != nil {
		if l := m.md.live(); l != "" {
			top.WriteString(l)
			top.WriteByte('\n')
		}
	}
	if m.running && m.ask == nil && m.userq == nil && len(m.live) == 0 {
		top.WriteString(m.working(frame))
	}
	if m.ask != nil {
		top.WriteString(m.ask.view(&m.st, m.width, m.dialogRows()))
		top.WriteByte('\n')
	}
	if m.userq != nil {
		top.WriteString(m.userq.view(&m.st, m.width, m.dialogRows()))
		top.WriteByte('\n')
	}
	top.WriteString(m.planView())
	if m.picker != nil {
		top.WriteString(m.picker.view(&m.st, m.width))
		top.WriteByte('\n')
	}
	// One blank line sets the editor apart from the conversation.
	top.WriteByte('\n')
	top.WriteString(m.queueView())
	above := top.String()
	var b strings.Builder
	b.WriteString(above)
	b.WriteString(m.editorView())
	b.WriteByte('\n')
	if c := m.comp.view(&m.st, m.width); c != "" {
		b.WriteString(c)
		b.WriteByte('\n')
	}
	b.WriteString(m.cachedStatus())
	v := tea.NewView(b.String())
	v.ReportFocus = m.bell.way != ringOff
	m.frames.add(strings.Count(v.Content, "\n")+1, time.Now())
	if m.ask == nil && m.userq == nil && m.picker == nil {
		if m.inputCursor != nil {
			c := *m.inputCursor
			c.Y += strings.Count(above, "\n")
			v.Cursor = &c
		}
	}
	return v
}

// dialogRows is how many rows the approval dialog may take: the window
// less the editor, the status line, the blank line between them and the
// card of the call asked about, so that the whole dialog is on screen.
func (m *Model) dialogRows() int {
	if m.height <= 0 {
		return 40 // no size known yet (tests)
	}
	return m.height - m.input.Height() - 3
}

// editorView is the editor drawn, reused while its text, cursor, width and
// focus are unchanged.
func (m *Model) editorView() string {
	key := fmt.Sprintf("%d %d %d %d %t %t\x00%s", m.input.Width(), m.input.Height(), m.input.Line(), m.input.Column(), m.input.Focused(), m.dark, m.input.Value())
	if key != m.inputKey {
		m.inputKey, m.inputView, m.inputCursor = key, m.editorChips(m.input.View()), m.input.Cursor()
	}
	return m.inputView
}

// working is the line shown while the model is thinking, one per frame
// of the spinner.
func (m *Model) working(frame string) string {
	key := frame + fmt.Sprint(m.dark)
	if key != m.workKey {
		m.workKey, m.workView = key, m.st.warn.Render(frame)+m.st.dim.Render(" working… esc to stop")+"\n"
	}
	return m.workView
}

// cachedStatus is the status line, redrawn when what it shows changes.
func (m *Model) cachedStatus() string {
	key := fmt.Sprintf("%+v %d %t %d %s %t", m.info, m.iter, m.running, m.width, m.hint, m.dark)
	if key != m.statusKey {
		m.statusKey, m.statusView = key, m.statusLine()
	}
	return m.statusView
}
