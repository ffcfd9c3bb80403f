package tui

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
)

// command is a slash command with its one-line help.
type command struct {
	name, args, help string
}

// builtins are the chat's commands, in the order /help lists them.
var builtins = []command{
	{"help", "", "list the commands and keys"},
	{CmdClear, "", "start a new conversation"},
	{CmdTools, "", "list the tools the model can use"},
	{CmdModel, "[provider/]model", "switch model for the rest of the conversation"},
	{CmdUndo, "", "revert the last turn's file changes and tell the model"},
	{CmdRedo, "", "put back what the last /undo reverted"},
	{CmdRewind, "", "go back to before an earlier turn: files and conversation"},
	{CmdBackups, "", "list the backups of changed files"},
	{CmdResume, "", "pick an earlier session of this project"},
	{CmdPrompt, "", "show what the model was told (the system prompt)"},
	{CmdCompact, "", "shorten the conversation to free context"},
	{CmdNotes, "query", "search the notes"},
	{"exit", "", "quit (Ctrl+C twice does too)"},
}

// customCommand is a markdown file from .agent/commands or the user's
// config folder: /name args sends its text with the arguments filled in.
type customCommand struct {
	read func() ([]byte, error)
	help string
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
			c.help = firstLine(c.read)
			out[name] = c
		}
	}
	return out
}

// firstLine is a command file's help: its first non-empty line, without
// a heading mark; for a file that cannot be used, why.
func firstLine(read func() ([]byte, error)) string {
	b, err := read()
	if errors.Is(err, fs.ErrNotExist) {
		return ""
	}
	if err != nil {
		return ansi.Truncate(visible("✗ "+err.Error()), 60, "…")
	}
	if len(b) > 4096 {
		b = b[:4096]
	}
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(strings.TrimLeft(l, "#")); l != "" && l != "---" {
			return ansi.Truncate(visible(l), 60, "…")
		}
	}
	return ""
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
	for _, c := range builtins {
		if strings.HasPrefix(c.name, prefix) {
			out = append(out, compItem{value: c.name, help: c.help})
		}
	}
	names := make([]string, 0, len(m.custom))
	for n := range m.custom {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if strings.HasPrefix(n, prefix) && !isBuiltin(n) {
			out = append(out, compItem{value: n, help: m.custom[n].help})
		}
	}
	return out
}

func isBuiltin(name string) bool {
	for _, c := range builtins {
		if c.name == name {
			return true
		}
	}
	return false
}

// slash runs a slash command.
func (m *Model) slash(text string) tea.Cmd {
	name, args, _ := strings.Cut(strings.TrimPrefix(text, "/"), " ")
	args = strings.TrimSpace(args)
	switch name {
	case "help":
		m.println(m.helpText())
		return nil
	case "exit", "quit":
		return m.exit()
	}
	if isBuiltin(name) {
		if m.running {
			m.println(m.st.dim.Render("  (still working: esc stops the current reply first)"))
			return nil
		}
		m.println(m.st.dim.Render("  /" + name + " " + args))
		return m.backendCommand(name, args)
	}
	if c, ok := m.custom[name]; ok {
		read := c.read
		return func() tea.Msg {
			b, err := read()
			if err != nil {
				return attachedMsg{err: fmt.Errorf("/%s: %w", name, err)}
			}
			return customMsg{text: fillCommand(string(b), args), shown: text}
		}
	}
	m.println(m.st.fail.Render("  ✗ ") + "unknown command /" + visible(name) + " (/help lists them)")
	return nil
}

// customMsg is a custom command's text, ready to send.
type customMsg struct{ text, shown string }

func (m *Model) backendCommand(name, args string) tea.Cmd {
	b, ctx := m.backend, m.ctx
	return func() tea.Msg {
		r, err := b.Command(ctx, name, args)
		return commandDoneMsg{name: name, reply: r, err: err}
	}
}

// commandDone shows a backend command's answer.
func (m *Model) commandDone(msg commandDoneMsg) tea.Cmd {
	if msg.err != nil {
		m.println(m.errorLine(fmt.Errorf("/%s: %w", msg.name, msg.err)))
		return nil
	}
	r := msg.reply
	if r.Cleared {
		m.last = nil
		m.info = m.backend.Info()
		m.info.Policy = m.policy
	}
	if r.Text != "" {
		md := newMarkdown(&m.st, m.width)
		blocks := append(md.feed(r.Text), md.flush()...)
		m.println(strings.Join(blocks, "\n"))
	}
	if len(r.Choices) > 0 {
		m.picker = &picker{command: msg.name, choices: r.Choices}
	}
	if r.Input != "" {
		m.input.SetValue(r.Input)
	}
	m.info = m.mergeInfo(m.backend.Info())
	return nil
}

func (m *Model) helpText() string {
	var b strings.Builder
	b.WriteString(m.st.heading.Render("Commands") + "\n")
	for _, c := range builtins {
		n := "/" + c.name
		if c.args != "" {
			n += " " + c.args
		}
		fmt.Fprintf(&b, "  %-22s %s\n", n, m.st.dim.Render(c.help))
	}
	for _, it := range m.commandItems("") {
		if !isBuiltin(it.value) {
			fmt.Fprintf(&b, "  %-22s %s\n", "/"+it.value, m.st.dim.Render(it.help))
		}
	}
	b.WriteString(m.st.heading.Render("Keys") + "\n")
	for _, k := range [][2]string{
		{"enter", "send"},
		{"shift+enter ctrl+j", "new line"},
		{"↑ ↓", "history"},
		{"@path tab", "attach a file, with completion"},
		{"ctrl+g", "edit the message in $EDITOR"},
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
		l := "  " + visible(p.choices[i].Label)
		if i == p.sel {
			l = st.selected.Render("▸ " + visible(p.choices[i].Label))
		}
		lines = append(lines, ansi.Truncate(l, max(width-1, 10), "…"))
	}
	return strings.Join(lines, "\n")
}
