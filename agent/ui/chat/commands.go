package chat

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentcli/agent/internal/termtext"
	"github.com/agentcli/agent/tools/frontmatter"
)

// The chat's own commands, around the conversation's in /help.
var (
	helpCommand = Command{Name: "help", Help: "list the commands and keys"}
	exitCommand = Command{Name: "exit", Help: "quit (Ctrl+C twice does too)"}
)

// builtins are the commands /help lists, in order: the chat's and the
// conversation's.
func (m *Model) builtins() []Command {
	return append(append([]Command{helpCommand}, m.commands...), exitCommand)
}

// command is the conversation's command called name.
func (m *Model) command(name string) (Command, bool) {
	for _, c := range m.commands {
		if c.Name == name {
			return c, true
		}
	}
	return Command{}, false
}

// customCommand is a markdown file from .agent/commands or the user's
// config folder: /name args sends its text with the arguments filled in.
// Its YAML front matter (description, argument-hint) is for the chat,
// never sent.
type customCommand struct {
	read func() ([]byte, error)
	help string
	args string // the argument hint
}

// customsMsg is the custom commands listed again (a file added while the
// chat runs is found without a restart); retry is the command line that
// named an unknown command, run again against the new list.
type customsMsg struct {
	custom map[string]customCommand
	retry  string
}

// reloadCustom lists the custom commands again, in a command (I/O).
func (m *Model) reloadCustom(retry string) tea.Cmd {
	root, dir, read := m.opts.Root, m.opts.ConfigDir, m.opts.ReadCommand
	return func() tea.Msg {
		return customsMsg{custom: loadCustomCommands(root, dir, read), retry: retry}
	}
}

// loadCustomCommands lists the command files and reads their help lines
// through read; the project's win over the user's of the same name.
func loadCustomCommands(root, configDir string, read func(user bool, name string) ([]byte, error)) map[string]customCommand {
	out := map[string]customCommand{}
	if read == nil {
		return out
	}
	type folder struct {
		dir  string
		user bool
	}
	var dirs []folder
	if configDir != "" {
		dirs = append(dirs, folder{filepath.Join(configDir, "commands"), true})
	}
	if root != "" {
		dirs = append(dirs, folder{filepath.Join(root, ".agent", "commands"), false})
	}
	for _, d := range dirs {
		// Only the names are taken from the listing; every read goes
		// through read, which judges each file (and link) on its own.
		ents, err := os.ReadDir(d.dir)
		if err != nil {
			continue
		}
		for _, e := range ents {
			name, ok := strings.CutSuffix(e.Name(), ".md")
			if !ok || e.IsDir() || name == "" || strings.ContainsAny(name, " \t") {
				continue
			}
			user, file := d.user, e.Name()
			c := customCommand{read: func() ([]byte, error) { return read(user, file) }}
			c.help, c.args = commandHelp(c.read)
			out[name] = c
		}
	}
	return out
}

// commandHelp is a command file's help: the description of its front
// matter, else its first non-empty line without a heading mark; and its
// argument hint. For a file that cannot be used, why.
func commandHelp(read func() ([]byte, error)) (help, args string) {
	b, err := read()
	if errors.Is(err, fs.ErrNotExist) {
		return "", ""
	}
	if err != nil {
		return ansi.Truncate(termtext.Drawn("✗ "+err.Error()), 60, "…"), ""
	}
	matter, body, err := frontmatter.Parse(string(b))
	if err != nil {
		return ansi.Truncate(termtext.Drawn("✗ front matter: "+err.Error()), 60, "…"), ""
	}
	if a, ok := matter.Text("argument-hint"); ok {
		args = ansi.Truncate(oneLine(termtext.Drawn(a)), 30, "…")
	}
	if d, ok := matter.Text("description"); ok && strings.TrimSpace(d) != "" {
		return ansi.Truncate(oneLine(termtext.Drawn(strings.TrimSpace(d))), 60, "…"), args
	}
	if len(body) > 4096 {
		body = body[:4096]
	}
	for _, l := range strings.Split(body, "\n") {
		if l = strings.TrimSpace(strings.TrimLeft(l, "#")); l != "" {
			return ansi.Truncate(termtext.Drawn(l), 60, "…"), args
		}
	}
	return "", args
}

// commandBody is a command file's text to send: without its front
// matter.
func commandBody(b []byte) (string, error) {
	_, body, err := frontmatter.Parse(string(b))
	if err != nil {
		return "", fmt.Errorf("front matter: %w", err)
	}
	return strings.TrimLeft(body, "\n"), nil
}

// fillCommand puts args into a command's text: $ARGUMENTS or {{args}}
// where the file has them, else after the text.
func fillCommand(text, args string) string {
	if strings.Contains(text, "$ARGUMENTS") || strings.Contains(text, "{{args}}") {
		return strings.ReplaceAll(strings.ReplaceAll(text, "$ARGUMENTS", args), "{{args}}", args)
	}
	if args == "" {
		return text
	}
	return strings.TrimRight(text, "\n") + "\n\n" + args
}

// commandItems are the completions for a partial command name.
func (m *Model) commandItems(prefix string) []compItem {
	var out []compItem
	for _, c := range m.builtins() {
		if strings.HasPrefix(c.Name, prefix) {
			out = append(out, compItem{value: c.Name, help: c.Help})
		}
	}
	names := make([]string, 0, len(m.custom))
	for n := range m.custom {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if strings.HasPrefix(n, prefix) && !m.isBuiltin(n) {
			c := m.custom[n]
			out = append(out, compItem{value: n, help: strings.TrimSpace(c.args + "  " + c.help)})
		}
	}
	return out
}

func (m *Model) isBuiltin(name string) bool {
	for _, c := range m.builtins() {
		if c.Name == name {
			return true
		}
	}
	return false
}

// slash runs a slash command.
func (m *Model) slash(text string) tea.Cmd { return m.slashCommand(text, false) }

// slashCommand runs a slash command; reloaded says the custom commands
// were just listed again, so an unknown name is unknown indeed.
func (m *Model) slashCommand(text string, reloaded bool) tea.Cmd {
	name, args, _ := strings.Cut(strings.TrimPrefix(text, "/"), " ")
	args = strings.TrimSpace(args)
	switch name {
	case "help":
		m.println(m.helpText())
		return nil
	case "exit", "quit":
		return m.exit()
	}
	if c, ok := m.command(name); ok {
		if m.running {
			m.println(m.st.dim.Render("  (still working: esc stops the current reply first)"))
			return nil
		}
		m.println(m.st.dim.Render("  /" + name + " " + args))
		return m.runCommand(c, args)
	}
	if c, ok := m.custom[name]; ok {
		read := c.read
		return func() tea.Msg {
			b, err := read()
			if err == nil {
				var body string
				if body, err = commandBody(b); err == nil {
					return customMsg{text: fillCommand(body, args), shown: text}
				}
			}
			return customMsg{err: fmt.Errorf("/%s: %w", name, err)}
		}
	}
	if !reloaded {
		// Perhaps a command file added since the list was read.
		return m.reloadCustom(text)
	}
	m.println(m.st.fail.Render("  ✗ ") + "unknown command /" + termtext.Drawn(name) + " (/help lists them)")
	return nil
}

// customMsg is a custom command's text, ready to send, or why it could
// not be read.
type customMsg struct {
	text, shown string
	err         error
}

// runCommand runs one of the conversation's commands in a command of
// its own (no I/O in Update).
func (m *Model) runCommand(c Command, args string) tea.Cmd {
	ctx := m.ctx
	return func() tea.Msg {
		r, err := c.Run(ctx, args)
		return commandDoneMsg{name: c.Name, reply: r, err: err}
	}
}

// commandDone shows a conversation command's answer.
func (m *Model) commandDone(msg commandDoneMsg) tea.Cmd {
	if msg.err != nil {
		m.println(m.errorLine(fmt.Errorf("/%s: %w", msg.name, msg.err)))
		return nil
	}
	r := msg.reply
	if r.Cleared {
		m.last = nil
		m.info = m.conv.Info()
	}
	if r.Text != "" {
		md := newMarkdown(&m.st, m.width)
		blocks := append(md.feed(r.Text), md.flush()...)
		m.println(strings.Join(blocks, "\n"))
	}
	if r.Cleared && msg.name == "resume" {
		if s := m.recap(); s != "" {
			m.println(s)
		}
	}
	if len(r.Choices) > 0 {
		m.picker = &picker{command: msg.name, choices: r.Choices}
	}
	if r.Input != "" {
		m.input.SetValue(r.Input)
	}
	m.info = m.mergeInfo(m.conv.Info())
	if r.Send != "" {
		return m.startRun(r.Send) // the command's line stands for it above
	}
	return nil
}

func (m *Model) helpText() string {
	var b strings.Builder
	b.WriteString(m.st.heading.Render("Commands") + "\n")
	for _, c := range m.builtins() {
		n := "/" + c.Name
		if c.Args != "" {
			n += " " + c.Args
		}
		fmt.Fprintf(&b, "  %-22s %s\n", n, m.st.dim.Render(c.Help))
	}
	for _, it := range m.commandItems("") {
		if !m.isBuiltin(it.value) {
			fmt.Fprintf(&b, "  %-22s %s\n", "/"+it.value, m.st.dim.Render(it.help))
		}
	}
	b.WriteString(m.st.heading.Render("Keys") + "\n")
	for _, k := range [][2]string{
		{"enter", "send"},
		{"shift+enter ctrl+j", "new line"},
		{"↑ ↓", "history"},
		{"@path tab", "attach a file or image, with completion"},
		{"ctrl+g", "edit the message in $EDITOR"},
		{"ctrl+x", "take the last queued message back"},
		{"shift+tab", "cycle approval: ask, auto, plan"},
		{"ctrl+o", "show the last tool result in full"},
		{"esc ctrl+c", "stop the reply; ctrl+c twice quits"},
	} {
		fmt.Fprintf(&b, "  %-22s %s\n", k[0], m.st.dim.Render(k[1]))
	}
	return strings.TrimRight(b.String(), "\n")
}

// picker chooses one of a command's Choices (/rewind, /resume).
type picker struct {
	command string
	choices []Choice
	sel     int
}

func (p *picker) view(st *styles, width int) string {
	var lines []string
	lines = append(lines, st.heading.Render("/"+p.command)+st.dim.Render("  ↑↓ choose · enter picks · esc cancels"))
	start := max(0, p.sel-7)
	for i := start; i < len(p.choices) && i < start+8; i++ {
		l := "  " + termtext.Drawn(p.choices[i].Label)
		if i == p.sel {
			l = st.selected.Render("▸ " + termtext.Drawn(p.choices[i].Label))
		}
		lines = append(lines, ansi.Truncate(l, max(width-1, 10), "…"))
	}
	return strings.Join(lines, "\n")
}
