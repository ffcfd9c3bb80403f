package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/tui"
	"github.com/agentcli/agent/prompt"
	"github.com/agentcli/agent/tools/notes"
)

// newChatCmd is `agent chat [PROMPT]`: the interactive chat.
func newChatCmd(d *factory) *cobra.Command {
	o := &runOptions{io: d.io}
	cmd := &cobra.Command{
		Use:   "chat [prompt]",
		Short: "Chat with the agent in this project (the default on a terminal)",
		Long: `chat opens the interactive chat in the project folder. The conversation
stays in the terminal's scrollback; only the reply being written, the tool
cards, a pending approval and the input are redrawn.

Enter sends; Shift+Enter, Alt+Enter or Ctrl+J start a new line. @path
attaches a file, /help lists the commands, Shift+Tab cycles the approval
mode (ask, auto, plan), Esc stops a reply and Ctrl+C twice quits.`,
		Example: `  agent
  agent chat "explain the build"
  agent chat --continue`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runChat(cmd.Context(), d, o, strings.Join(args, " "))
		},
	}
	chatFlags(cmd, o)
	return cmd
}

func chatFlags(cmd *cobra.Command, o *runOptions) {
	f := cmd.Flags()
	f.StringVar(&o.provider, "provider", "", config.ProviderFlagHelp())
	f.StringVar(&o.model, "model", "", "model name")
	f.IntVar(&o.maxIterations, "max-iterations", 0, fmt.Sprintf("model calls allowed per message (default %d)", agent.DefaultMaxIterations))
	f.StringVar(&o.dir, "dir", "", "project folder (default: the current folder)")
	f.BoolVarP(&o.continueLast, "continue", "c", false, "continue the last conversation in this project")
	f.StringVar(&o.sessionID, "session", "", "continue the conversation with this id")
	f.BoolVarP(&o.yes, "yes", "y", false, "allow writes without asking (same as --approval auto)")
	f.StringVar(&o.approval, "approval", "", "how writes are approved: ask, auto or never (default ask)")
}

// setRootChat makes `agent` with no arguments open the chat on a terminal;
// with no terminal it prints the help, which points to `agent run`.
func setRootChat(root *cobra.Command, d *factory) {
	o := &runOptions{io: d.io}
	chatFlags(root, o)
	root.Args = cobra.NoArgs
	root.RunE = func(cmd *cobra.Command, _ []string) error {
		if !d.io.stdinTTY || !d.io.stdoutTTY {
			fmt.Fprintln(d.io.ErrOut, "agent: no terminal for the chat; use 'agent run \"PROMPT\"' to answer one request (see below)")
			return cmd.Help()
		}
		return runChat(cmd.Context(), d, o, "")
	}
}

func runChat(ctx context.Context, d *factory, o *runOptions, first string) error {
	tui.Prepare() // before the conversation is built: see its comment
	if o.continueLast && o.sessionID != "" {
		return usageErrorf("use --continue or --session, not both")
	}
	if o.approval != "" {
		if _, err := agent.ParsePolicy(o.approval); err != nil {
			return usageError{err}
		}
	}
	root, err := d.workFolder(o.dir)
	if err != nil {
		return err
	}
	o.dir = root
	b, err := newChatBackend(ctx, d, o)
	if err != nil {
		return err
	}
	defer b.close()
	progs := d.programs(root, b.conv.cfg)
	tmux, _ := progs.Find("tmux") // "": the chat never asks tmux
	userDir := userConfigDir(d.environ())
	m := tui.New(ctx, tui.Options{
		Backend:     b,
		Prompt:      first,
		Root:        root,
		ConfigDir:   userDir,
		ReadCommand: commandReader(b.conv.fileRoot, userDir),
		Editor:      func() ([]string, error) { return progs.Editor(d.environ()) },
		Tmux:        tmux,
	})
	b.ask = m.Asker()
	return tui.Run(ctx, m, d.io.In, d.io.Out)
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// chatBackend adapts the conversation (the same builder `agent run` uses)
// to the chat: approval asked in the chat's dialog, the policy changed
// between turns by Shift+Tab.
type chatBackend struct {
	d    *factory
	o    *runOptions
	root string
	conv *conversation
	a    *agent.Agent
	ask  tui.Asker

	mu     sync.Mutex
	policy agent.Policy
}

func (o *runOptions) convOptions() convOptions {
	return convOptions{
		dir: o.dir,
		flags: config.Flags{
			Provider:      o.provider,
			Model:         o.model,
			Approval:      o.approval,
			MaxIterations: o.maxIterations,
		},
		sessionID:    o.sessionID,
		continueLast: o.continueLast,
	}
}

func newChatBackend(ctx context.Context, d *factory, o *runOptions) (*chatBackend, error) {
	return newChatBackendWith(ctx, d, o, o.convOptions())
}

// newChatBackendWith builds the chat's backend over the conversation co
// describes (tests set its model).
func newChatBackendWith(ctx context.Context, d *factory, o *runOptions, co convOptions) (*chatBackend, error) {
	b := &chatBackend{d: d, o: o, root: o.dir}
	co.approval = agent.Approval{Ask: agent.AskFunc(b.askInChat)}
	conv, err := d.newConversation(ctx, co)
	if err != nil {
		return nil, err
	}
	b.conv, b.a = conv, conv.agent
	b.policy = o.policy(agent.Policy(conv.cfg.Approval))
	b.a.SetPolicy(b.policy)
	if o.maxIterations > 0 {
		b.a.MaxIterations = o.maxIterations
	}
	return b, nil
}

func (b *chatBackend) close() { b.conv.Close() }

// Run runs one turn of the conversation.
func (b *chatBackend) Run(ctx context.Context, text string, emit func(agent.Event)) (*agent.Outcome, error) {
	b.mu.Lock()
	pol := b.policy
	b.mu.Unlock()
	b.a.SetPolicy(pol)
	return b.conv.Run(ctx, text, emit)
}

// askInChat is the loop's Asker: the question goes to the chat's dialog.
func (b *chatBackend) askInChat(ctx context.Context, q agent.Question) (agent.Answer, error) {
	r := tui.Request{
		Tool:       q.Tool.Name,
		Summary:    q.Preview.Summary,
		Diff:       q.Preview.Diff,
		Lines:      q.Preview.Lines,
		ScopeLabel: q.Preview.ScopeLabel,
	}
	v, err := b.ask.Ask(ctx, r)
	if err != nil {
		return agent.Answer{Decision: agent.Deny}, err
	}
	return agent.Answer{Decision: v.Decision, Reason: v.Reason}, nil
}

func (b *chatBackend) Info() tui.Info {
	provider, model, _ := strings.Cut(b.a.Model.Name(), "/")
	if model == "" {
		provider, model = "", provider
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return tui.Info{
		Provider: provider, Model: model,
		Folder:  tildePath(b.root),
		Session: b.a.Session.ID,
		Policy:  b.policy,
	}
}

func tildePath(p string) string {
	if home, err := os.UserHomeDir(); err == nil && home != "/" {
		if rel, err := filepath.Rel(home, p); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.Join("~", rel)
		}
	}
	return p
}

func (b *chatBackend) SetPolicy(p agent.Policy) {
	b.mu.Lock()
	b.policy = p
	b.mu.Unlock()
}

// maxCompletionFiles bounds the walk for @path completion.
const maxCompletionFiles = 20000

// Files lists the project's files, as the tree in the prompt sees them.
func (b *chatBackend) Files(ctx context.Context) ([]string, error) {
	ig, err := prompt.NewIgnore(b.root)
	if err != nil {
		return nil, err
	}
	var out []string
	err = filepath.WalkDir(b.root, func(p string, e fs.DirEntry, err error) error {
		if err != nil || ctx.Err() != nil {
			return filepath.SkipDir
		}
		rel, _ := filepath.Rel(b.root, p)
		if rel == "." {
			return nil
		}
		rel = filepath.ToSlash(rel)
		if e.Name() == ".git" || e.Name() == ".agent" || ig.Ignored(rel, e.IsDir()) {
			if e.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !e.IsDir() {
			out = append(out, rel)
			if len(out) >= maxCompletionFiles {
				return filepath.SkipAll
			}
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

// Attach reads a file through the read tool, so it counts as read for the
// write guards, and returns it for the message.
func (b *chatBackend) Attach(ctx context.Context, path string) (string, error) {
	res, err := b.a.Tools.Call(ctx, "read_file", map[string]string{"file_path": path})
	if err != nil {
		return "", err
	}
	if res.IsError() {
		return "", errors.New(res.Message)
	}
	return fmt.Sprintf("<file path=%q>\n%s\n</file>", path, res.Content), nil
}

// Command runs the chat's conversation commands.
func (b *chatBackend) Command(ctx context.Context, name, args string) (tui.Reply, error) {
	switch name {
	case tui.CmdClear:
		b.a.Session.Close()
		b.a.Session = agent.NewSession(b.root)
		return tui.Reply{Text: "New conversation.", Cleared: true}, nil
	case tui.CmdTools:
		var sb strings.Builder
		for _, t := range b.a.Tools.Tools() {
			def := t.Definition()
			fmt.Fprintf(&sb, "- **%s** %s\n", def.Name, firstSentence(def.Description))
		}
		return tui.Reply{Text: sb.String()}, nil
	case tui.CmdPrompt:
		return tui.Reply{Text: "```\n" + b.a.System + "\n```"}, nil
	case tui.CmdUndo:
		return b.undo(ctx, "undo")
	case tui.CmdRedo:
		return b.undo(ctx, "redo")
	case tui.CmdRewind:
		return b.rewind(ctx, strings.TrimSpace(args))
	case tui.CmdBackups:
		return b.backups()
	case tui.CmdModel:
		return b.switchModel(ctx, args)
	case tui.CmdResume:
		return b.resume(args)
	case tui.CmdCompact:
		u, err := b.a.Compact(ctx, nil)
		if err != nil {
			return tui.Reply{}, err
		}
		return tui.Reply{Text: fmt.Sprintf("Compacted: the older turns are now one summary (%d tokens in, %d out). The session log keeps everything.", u.InputTokens, u.OutputTokens)}, nil
	case tui.CmdNotes:
		return b.notes(ctx, strings.TrimSpace(args))
	}
	return tui.Reply{}, tui.ErrUnsupported
}

// notes lists the latest notes, or searches them when a query is given.
func (b *chatBackend) notes(ctx context.Context, query string) (tui.Reply, error) {
	store := b.conv.tools.notes
	if store == nil {
		return tui.Reply{Text: "The note tools are off (tools.notes = false)."}, nil
	}
	var sb strings.Builder
	if query == "" {
		page, err := store.List(ctx, notes.ListOptions{Limit: 20})
		if err != nil {
			return tui.Reply{}, err
		}
		if len(page.Notes) == 0 {
			return tui.Reply{Text: "No notes yet."}, nil
		}
		fmt.Fprintf(&sb, "%d notes; the latest:\n", page.Total)
		for _, n := range page.Notes {
			fmt.Fprintf(&sb, "- **%d** %s (%s)\n", n.ID, n.Title, n.Folder)
		}
		return tui.Reply{Text: sb.String()}, nil
	}
	res, err := store.Search(ctx, notes.SearchOptions{Query: query, Limit: 20})
	if err != nil {
		return tui.Reply{}, err
	}
	if res.Fallback != "" {
		fmt.Fprintf(&sb, "_%s_\n", res.Fallback)
	}
	if len(res.Hits) == 0 {
		sb.WriteString("No note matches.")
	}
	for _, h := range res.Hits {
		ex := strings.NewReplacer(notes.MarkStart, "**", notes.MarkEnd, "**").Replace(h.Excerpt)
		fmt.Fprintf(&sb, "- **%d** %s: %s\n", h.Note.ID, h.Note.Title, ex)
	}
	return tui.Reply{Text: sb.String()}, nil
}

func (b *chatBackend) backups() (tui.Reply, error) {
	root, err := b.d.configuredFileRoot(b.root)
	if err != nil {
		return tui.Reply{}, err
	}
	defer root.Close()
	st, err := root.Backups()
	if err != nil {
		return tui.Reply{}, err
	}
	sets, err := st.List()
	if err != nil {
		return tui.Reply{}, err
	}
	if len(sets) == 0 {
		return tui.Reply{Text: "No backups yet."}, nil
	}
	var sb strings.Builder
	for _, c := range sets {
		mark := ""
		switch {
		case c.UndoRun != "":
			mark = " (undo)"
		case c.RedoRun != "":
			mark = " (redo)"
		}
		fmt.Fprintf(&sb, "- `%s` %s %s%s\n", c.ID, c.Time.Local().Format("2006-01-02 15:04"), summarizeFiles(c.Files(), 3), mark)
	}
	return tui.Reply{Text: sb.String()}, nil
}

// switchModel rebuilds the model for "provider/model" or "model".
func (b *chatBackend) switchModel(ctx context.Context, spec string) (tui.Reply, error) {
	if spec == "" {
		return tui.Reply{Text: "Model: `" + b.a.Model.Name() + "`. Use /model NAME or /model PROVIDER/NAME."}, nil
	}
	o := *b.o
	if p, m, ok := strings.Cut(spec, "/"); ok && knownProvider(p) {
		o.provider, o.model = p, m
	} else {
		o.model = spec
	}
	cfg, err := b.d.loadConfig(ctx, b.root, o.convOptions().flags)
	if err != nil {
		return tui.Reply{}, err
	}
	model, err := b.d.model(ctx, cfg)
	if err != nil {
		return tui.Reply{}, err
	}
	b.a.Model = model
	return tui.Reply{Text: "Now using `" + model.Name() + "`."}, nil
}

func knownProvider(p string) bool {
	_, ok := config.LookupPreset(p)
	return ok
}

// resume lists the project's sessions, or switches to one.
func (b *chatBackend) resume(id string) (tui.Reply, error) {
	if id == "" {
		ents, err := os.ReadDir(filepath.Join(b.root, agent.SessionDir))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return tui.Reply{}, err
		}
		var choices []tui.Choice
		for i := len(ents) - 1; i >= 0 && len(choices) < 30; i-- {
			if sid, ok := strings.CutSuffix(ents[i].Name(), ".jsonl"); ok && sid != b.a.Session.ID {
				choices = append(choices, tui.Choice{Label: sid, Value: sid})
			}
		}
		if len(choices) == 0 {
			return tui.Reply{Text: "No earlier session in this project."}, nil
		}
		return tui.Reply{Choices: choices}, nil
	}
	s, err := agent.OpenSession(b.root, id)
	if err != nil {
		return tui.Reply{}, err
	}
	b.a.Session.Close()
	b.a.Session = s
	if err := loadFileState(b.conv.files, b.root, id); err != nil {
		return tui.Reply{}, err
	}
	return tui.Reply{Text: fmt.Sprintf("Resumed session `%s` (%d messages).", id, len(s.Messages())), Cleared: true}, nil
}
