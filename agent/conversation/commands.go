package conversation

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/prompt"
	"github.com/agentcli/agent/tools/notes"
	"github.com/agentcli/agent/tools/sandbox"
)

// Command is one of the conversation's slash commands. The chat lists,
// completes and runs whatever Commands holds: a new command is an entry
// there and its method here.
type Command struct {
	Name string
	// Args hints at the argument after the name in /help
	// ("[provider/]model"); "" for none.
	Args string
	// Help is the command's line in /help.
	Help string
	// Run runs it with the argument text (the Value of a Choice, for a
	// command that offered them).
	Run func(ctx context.Context, args string) (Reply, error)
}

// Reply is what a command answers.
type Reply struct {
	// Text is shown in the chat (markdown); may be empty.
	Text string
	// Choices, when set, lets the user pick one; the pick runs the
	// command again with its Value.
	Choices []Choice
	// Cleared says the conversation was replaced (/clear, /resume,
	// /rewind): the chat starts a new section.
	Cleared bool
	// Input, when set, replaces the text of the input box (/rewind gives
	// back the message of the turn it went back before, to edit and send
	// again).
	Input string
	// Send, when set, is sent to the model as the next message, as if
	// typed (/init's instruction).
	Send string
}

// Choice is one entry of a picker.
type Choice struct {
	Label, Value string
}

// Info is what the chat's status line shows.
type Info struct {
	Provider, Model string
	Folder          string // the project folder, as the user knows it
	Session         string // the session id
	Policy          agent.Policy
	// Tokens in and out so far in this conversation; zero when the
	// conversation does not count them (the chat adds them up).
	TokensIn, TokensOut int
}

// Commands are the conversation's slash commands, in the order /help
// lists them.
func (c *Conversation) Commands() []Command {
	return []Command{
		{"clear", "", "start a new conversation", c.clearCommand},
		{"tools", "", "list the tools the model can use", c.toolsCommand},
		{"model", "[provider/]model", "switch model for the rest of the conversation", c.modelCommand},
		{"undo", "", "revert the last turn's file changes and tell the model", c.undoCommand("undo")},
		{"redo", "", "put back what the last /undo reverted", c.undoCommand("redo")},
		{"rewind", "", "go back to before an earlier turn: files and conversation", c.rewindCommand},
		{"backups", "", "list the backups of changed files", c.backupsCommand},
		{"resume", "", "pick an earlier session of this project", c.resumeCommand},
		{"prompt", "", "show what the model was told (the system prompt)", c.promptCommand},
		{"compact", "", "shorten the conversation to free context", c.compactCommand},
		{"notes", "query", "search the notes", c.notesCommand},
		{"jobs", "", "list the background jobs of this project", c.jobsCommand},
		{"lsp", "", "list the language servers, their state and last diagnostics", c.lspCommand},
		{"skills", "", "list the skills the model can load", c.skillsCommand},
		{"init", "", "draft or improve AGENTS.md from a look at the project", c.initCommand},
		{"export", "", "write this conversation as Markdown into .agent/sessions", c.exportCommand},
		{"agents", "", "list the sub-agents the model can hand a job to", c.agentsCommand},
		{"hooks", "", "list the hooks that run at the agent's steps", c.hooksCommand},
	}
}

// Info describes the conversation for the status line.
func (c *Conversation) Info() Info {
	provider, model, _ := strings.Cut(c.Model().Name(), "/")
	if model == "" {
		provider, model = "", provider
	}
	return Info{Provider: provider, Model: model, Folder: tildePath(c.dir), Session: c.SessionID(), Policy: c.Policy()}
}

func tildePath(p string) string {
	if home, err := os.UserHomeDir(); err == nil && home != "/" {
		if rel, err := filepath.Rel(home, p); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.Join("~", rel)
		}
	}
	return p
}

// maxCompletionFiles bounds the walk for @path completion.
const maxCompletionFiles = 20000

// Files lists the project's files (project-relative, slash separated),
// as the tree in the prompt sees them, for @path completion.
func (c *Conversation) Files(ctx context.Context) ([]string, error) {
	ig, err := prompt.NewIgnore(c.dir)
	if err != nil {
		return nil, err
	}
	var out []string
	err = filepath.WalkDir(c.dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || ctx.Err() != nil {
			return filepath.SkipDir
		}
		rel, _ := filepath.Rel(c.dir, p)
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

// Attach reads a project file through the read tool, so it counts as
// read for the write guards, and returns it for the message. It reads for
// the person (sandbox.ForPerson): a hard link, which may be another name
// of .env, is refused.
func (c *Conversation) Attach(ctx context.Context, path string) (string, error) {
	res, err := c.tools.Reg.Call(sandbox.ForPerson(ctx), "read_file", map[string]string{"file_path": path})
	if err != nil {
		return "", err
	}
	if res.IsError() {
		return "", errors.New(res.Message)
	}
	return fmt.Sprintf("<file path=%q>\n%s\n</file>", path, res.Content), nil
}

func (c *Conversation) clearCommand(context.Context, string) (Reply, error) {
	if err := c.Clear(); err != nil {
		return Reply{}, err
	}
	return c.withHookLines(Reply{Text: "New conversation.", Cleared: true}), nil
}

func (c *Conversation) toolsCommand(context.Context, string) (Reply, error) {
	var sb strings.Builder
	for _, t := range c.tools.Reg.Tools() {
		def := t.Definition()
		fmt.Fprintf(&sb, "- **%s** %s\n", def.Name, FirstSentence(def.Description))
	}
	return Reply{Text: sb.String()}, nil
}

// FirstSentence keeps a description short: up to its first sentence end
// or line break.
func FirstSentence(s string) string {
	if i := strings.IndexAny(s, "\n"); i >= 0 {
		s = s[:i]
	}
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	}
	return s
}

func (c *Conversation) promptCommand(context.Context, string) (Reply, error) {
	return Reply{Text: "```\n" + c.System() + "\n```"}, nil
}

func (c *Conversation) modelCommand(ctx context.Context, spec string) (Reply, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return Reply{Text: "Model: `" + c.Model().Name() + "`. Use /model NAME or /model PROVIDER/NAME."}, nil
	}
	model, err := c.SwitchModel(ctx, spec)
	if err != nil {
		return Reply{}, err
	}
	return Reply{Text: "Now using `" + model.Name() + "`."}, nil
}

func (c *Conversation) compactCommand(ctx context.Context, _ string) (Reply, error) {
	u, err := c.Compact(ctx)
	if err != nil {
		return Reply{}, err
	}
	return c.withHookLines(Reply{Text: fmt.Sprintf("Compacted: the older turns are now one summary (%d tokens in, %d out). The session log keeps everything.", u.InputTokens, u.OutputTokens)}), nil
}

// resumeCommand lists the project's sessions, or switches to one.
func (c *Conversation) resumeCommand(_ context.Context, id string) (Reply, error) {
	id = strings.TrimSpace(id)
	if id == "" {
		list, err := agent.ListSessions(c.dir)
		if err != nil {
			return Reply{}, err
		}
		var choices []Choice
		now, current := time.Now(), c.SessionID()
		for i := len(list) - 1; i >= 0 && len(choices) < 30; i-- {
			if s := list[i]; s.ID != current {
				choices = append(choices, Choice{Label: sessionLabel(s, now), Value: s.ID})
			}
		}
		if len(choices) == 0 {
			return Reply{Text: "No earlier session in this project."}, nil
		}
		return Reply{Choices: choices}, nil
	}
	if err := c.Resume(id); err != nil {
		return Reply{}, err
	}
	return c.withHookLines(Reply{Text: fmt.Sprintf("Resumed session `%s` (%d messages).", id, len(c.Session().Messages())), Cleared: true}), nil
}

// notesCommand lists the latest notes, or searches them when a query is
// given.
func (c *Conversation) notesCommand(ctx context.Context, query string) (Reply, error) {
	query = strings.TrimSpace(query)
	store := c.tools.Notes
	if store == nil {
		return Reply{Text: "The note tools are off (tools.notes = false)."}, nil
	}
	var sb strings.Builder
	if query == "" {
		page, err := store.List(ctx, notes.ListOptions{Limit: 20})
		if err != nil {
			return Reply{}, err
		}
		if len(page.Notes) == 0 {
			return Reply{Text: "No notes yet."}, nil
		}
		fmt.Fprintf(&sb, "%d notes; the latest:\n", page.Total)
		for _, n := range page.Notes {
			fmt.Fprintf(&sb, "- **%d** %s (%s)\n", n.ID, n.Title, n.Folder)
		}
		return Reply{Text: sb.String()}, nil
	}
	res, err := store.Search(ctx, notes.SearchOptions{Query: query, Limit: 20})
	if err != nil {
		return Reply{}, err
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
	return Reply{Text: sb.String()}, nil
}

func (c *Conversation) backupsCommand(context.Context, string) (Reply, error) {
	st, err := c.root.Backups()
	if err != nil {
		return Reply{}, err
	}
	sets, err := st.List()
	if err != nil {
		return Reply{}, err
	}
	if len(sets) == 0 {
		return Reply{Text: "No backups yet."}, nil
	}
	var sb strings.Builder
	for _, cs := range sets {
		mark := ""
		switch {
		case cs.UndoRun != "":
			mark = " (undo)"
		case cs.RedoRun != "":
			mark = " (redo)"
		}
		fmt.Fprintf(&sb, "- `%s` %s %s%s\n", cs.ID, cs.Time.Local().Format("2006-01-02 15:04"), cs.FileSummary(3), mark)
	}
	return Reply{Text: sb.String()}, nil
}

// undoCommand is /undo or /redo (kind): the last run of the project is
// reverted, or the last undone one put back, and the conversation
// records it so the model is told with the next message.
func (c *Conversation) undoCommand(kind string) func(context.Context, string) (Reply, error) {
	return func(ctx context.Context, _ string) (Reply, error) {
		undo := c.Undo
		if kind == "redo" {
			undo = c.Redo
		}
		r, err := undo(ctx)
		var (
			ce *sandbox.ConflictError
			ue *sandbox.UnsignedError
		)
		switch {
		case errors.As(err, &ue):
			return Reply{}, fmt.Errorf("%s; nothing was done (look at that content first; 'agent %s --force' in a shell restores it anyway)", ue.Error(), kind)
		case errors.Is(err, sandbox.ErrNothingToUndo):
			return Reply{Text: "Nothing to undo: the agent has not written anything in this project yet, or it is all undone."}, nil
		case errors.Is(err, ErrRedoRewound):
			return Reply{Text: "Nothing to redo: what was undone went with the turns you rewound."}, nil
		case errors.Is(err, sandbox.ErrNothingToRedo):
			return Reply{Text: "Nothing to redo (a new write by the agent clears what was undone)."}, nil
		case errors.As(err, &ce):
			return Reply{}, fmt.Errorf("%s changed since the agent wrote it; nothing was done ('agent %s --force' does it anyway, backing the current content up first)", strings.Join(ce.Paths, ", "), kind)
		case err != nil:
			return Reply{}, err
		}
		what := "run `" + r.Reports[0].Run + "`"
		if r.Turn.N > 0 {
			what = fmt.Sprintf("turn %d", r.Turn.N)
		}
		verb := map[string]string{"undo": "Undid", "redo": "Redid"}[kind]
		return Reply{Text: fmt.Sprintf("%s %s:\n\n%s\nThe model is told with your next message.", verb, what, fileLines(r.Reports...))}, nil
	}
}

// rewindCommand is /rewind: with no run, the turns to choose from; with
// one, the files and the conversation go back to before that turn
// together, and the turn's message comes back for editing.
func (c *Conversation) rewindCommand(ctx context.Context, run string) (Reply, error) {
	run = strings.TrimSpace(run)
	if run == "" {
		turns := c.Turns()
		if len(turns) == 0 {
			return Reply{Text: "No turn to rewind to in this conversation."}, nil
		}
		// Numbered by their place in the conversation as it is now: after
		// a rewind the turns left are 1, 2, …, whatever their run ids.
		var choices []Choice
		for i, t := range slices.Backward(turns) {
			choices = append(choices, Choice{Label: fmt.Sprintf("turn %d  %s", i+1, agent.FirstLine(typedText(t.Text), 60)), Value: t.Run})
		}
		return Reply{Choices: choices}, nil
	}
	r, err := c.Rewind(ctx, run)
	var (
		ce *sandbox.ConflictError
		ue *sandbox.UnsignedError
	)
	switch {
	case errors.As(err, &ue):
		return Reply{}, fmt.Errorf("%s; nothing was rewound ('agent undo --force' in a shell restores it anyway, after you looked at that content)", ue.Error())
	case errors.As(err, &ce):
		return Reply{}, fmt.Errorf("%s changed since the agent wrote it; nothing was rewound (edit it back, or 'agent undo --force' reverts anyway)", strings.Join(ce.Paths, ", "))
	case err != nil:
		return Reply{}, err
	}
	// The turn's place: the turns before it are those left.
	text := fmt.Sprintf("Rewound to before turn %d: the conversation goes on from there.", len(c.Turns())+1)
	changed := 0
	for _, rep := range r.Reports {
		changed += len(rep.Changed())
	}
	if changed > 0 {
		text += "\n\n" + fileLines(r.Reports...)
	} else {
		text += " No file needed changing."
	}
	return Reply{Text: text, Input: typedText(r.Turn.Text), Cleared: true}, nil
}

// fileLines lists what a restore did, one markdown item a line.
func fileLines(reps ...sandbox.RestoreReport) string {
	var sb strings.Builder
	for _, rep := range reps {
		for _, f := range rep.Files {
			fmt.Fprintf(&sb, "- %s `%s`\n", f.Action, f.Path)
		}
		for _, d := range rep.FoldersRemoved {
			fmt.Fprintf(&sb, "- removed folder `%s/`\n", d)
		}
		for _, d := range rep.FoldersMade {
			fmt.Fprintf(&sb, "- made folder `%s/`\n", d)
		}
	}
	return sb.String()
}

// typedText is a message without the files the chat attached to it
// (@path), as the user typed it.
func typedText(s string) string {
	if i := strings.Index(s, "\n\n<file path=\""); i >= 0 {
		s = s[:i]
	}
	return s
}
