package app

import (
	"context"
	"errors"
	"time"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/conversation"
	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/prompt"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/fsedit"
	"github.com/agentcli/agent/tools/notes"
	"github.com/agentcli/agent/tools/programs"
	"github.com/agentcli/agent/tools/sandbox"
	"github.com/agentcli/agent/tools/shell"
	"github.com/agentcli/agent/tts"
)

// Builder turns a project folder and Options into a Conversation, and
// gives agent serve, the prompt and the tool catalog the same parts. Its
// fields are what comes from outside the agent, filled in by cmd/agent;
// the hooks a test may swap are marked so.
type Builder struct {
	// Config loads the configuration of a project folder for a
	// conversation with the configured model: flags over the
	// environment over the project's and the user's files, the
	// project's own settings once it is trusted (cmd/agent asks on the
	// terminal).
	Config func(ctx context.Context, dir string, flags config.Flags) (config.Config, error)
	// LocalConfig loads it for work with no configured model (a
	// scripted one, agent serve, the catalog): a missing key is no
	// error, and nothing is asked or probed.
	LocalConfig func(dir string) (config.Config, error)
	// Model builds the configured provider's model; the concrete
	// providers are cmd/agent's to import. Tests give a scripted one.
	Model func(ctx context.Context, cfg config.Config) (llm.Model, error)
	// Tools, when set, builds a project's tools instead of the agent's
	// own (tests give a smaller set).
	Tools func(ctx context.Context, in conversation.ToolInput) (*conversation.ToolSet, error)

	// UserDir is the user's configuration folder for the agent, whose
	// AGENTS.md applies to every project; "" for none.
	UserDir string
	// Now is the clock of system prompts; time.Now when nil.
	Now func() time.Time
	// Warn says one line to the user (a server that did not start, a
	// setting that is ignored); nil says nothing.
	Warn func(string)
	// BackupKey returns the key that signs the backups.
	BackupKey func() []byte
	// Programs finds the helper programs run outside the sandbox
	// (bubblewrap, espeak-ng, MCP servers) for a project folder.
	Programs func(root string, cfg config.Config) *programs.Resolver
	// Version is the agent's version, told to the web.
	Version string
	// LSPWait, when set, is the longest a check of the language servers
	// waits, their first included (tests on a loaded machine); zero is
	// lsp's defaults.
	LSPWait time.Duration

	// The settings of the optional tool families (tools.go); a nil hook
	// leaves its family out.

	// Speech is the speech engines' settings for audio_generation.
	Speech func(cfg config.Config) tts.Settings
	// Notes is the project's notes store, opened on first use.
	Notes func(cfg config.Config, root string) notes.Store
	// MCP adds the configured MCP servers' tools to reg and returns what
	// stops them; watch is the git guard the project's servers share
	// with its run_command.
	MCP func(ctx context.Context, cfg config.Config, root string, progs *programs.Resolver, reg *tools.Registry, watch *shell.GitWatch) (func() error, error)

	// SubagentStop, when set, is told each time a sub-agent the task
	// tool ran ends (its name, its answer or failure, the session),
	// with the conversation's configuration; a goOn that is not empty
	// sends the agent on with those words as its next instruction, at
	// most three times in a row (the SubagentStop hooks). Agents that
	// run side by side call it from their own goroutines.
	SubagentStop func(ctx context.Context, cfg config.Config, end SubagentEnd) (goOn string)
}

func (b *Builder) warn(msg string) {
	if b.Warn != nil {
		b.Warn(msg)
	}
}

func (b *Builder) programs(root string, cfg config.Config) *programs.Resolver {
	if b.Programs != nil {
		return b.Programs(root, cfg)
	}
	return programs.New(programs.Options{Fixed: cfg.Programs})
}

func (b *Builder) backupKey() []byte {
	if b.BackupKey == nil {
		return nil
	}
	return b.BackupKey()
}

// FileRoot returns the file tools' sandbox for the project folder dir
// with the configured file and backup settings, so that every command
// prunes backups by the same rules. Listings and searches hide what the
// file tree hides (prompt's rules). The caller closes it.
func (b *Builder) FileRoot(dir string, cfg config.Config) *sandbox.Root {
	return b.fileRoot(dir, conversation.FileOptions(cfg))
}

func (b *Builder) fileRoot(dir string, opts sandbox.Options) *sandbox.Root {
	opts.NewIgnorer = func(dir string) (sandbox.Ignorer, error) { return prompt.NewIgnore(dir) }
	opts.BackupKey = b.backupKey
	return sandbox.NewRoot(dir, opts)
}

// Catalog builds the tools of the project at dir as a conversation has
// them, with a fresh file session, for what only shows or parses them
// (agent tools, parse, prompt); agent serve builds them without the MCP
// servers (Serve). The caller closes it.
func (b *Builder) Catalog(ctx context.Context, dir string, cfg config.Config) (*conversation.ToolSet, error) {
	return b.catalog(ctx, conversation.ToolInput{Root: dir, Cfg: cfg})
}

// catalog builds the tools in as Catalog does, with a fresh file session.
func (b *Builder) catalog(ctx context.Context, in conversation.ToolInput) (*conversation.ToolSet, error) {
	fr := b.FileRoot(in.Root, in.Cfg)
	in.Files = fsedit.NewSession(fr)
	set, err := b.tools(ctx, in)
	if err != nil {
		fr.Close()
		return nil, err
	}
	set.Closers = append([]func() error{fr.Close}, set.Closers...)
	return set, nil
}

// ToolSession builds the project's tools around a file session that
// starts with what the model read as saved in the file state (none when
// "" or missing), for agent tool-call, which carries the reads across
// processes as a continued conversation does. save writes the state back
// (atomically) and closes what was opened.
func (b *Builder) ToolSession(ctx context.Context, dir string, cfg config.Config, state string) (reg *tools.Registry, save func() error, err error) {
	if err := conversation.EnsureStateDir(dir); err != nil { // backups, notes
		return nil, nil, err
	}
	fr := b.FileRoot(dir, cfg)
	files := fsedit.NewSession(fr)
	if state != "" {
		if err := conversation.LoadState(files, state); err != nil {
			fr.Close()
			return nil, nil, err
		}
	}
	set, err := b.tools(ctx, conversation.ToolInput{Root: dir, Cfg: cfg, Files: files})
	if err != nil {
		fr.Close()
		return nil, nil, err
	}
	save = func() error {
		var err error
		if state != "" {
			err = conversation.WriteAtomically(state, files.SaveState)
		}
		return errors.Join(err, set.Close(), fr.Close())
	}
	return set.Reg, save, nil
}

// New builds the conversation o asks for. On error nothing stays open.
func (b *Builder) New(ctx context.Context, o conversation.Options) (*conversation.Conversation, error) {
	return conversation.Open(ctx, b.world(), o)
}

// world is what a conversation takes from the Builder.
func (b *Builder) world() conversation.World {
	return conversation.World{
		Config:      b.Config,
		LocalConfig: b.LocalConfig,
		Model:       b.Model,
		FileRoot:    b.fileRoot,
		Tools:       b.tools,
		SystemPrompt: func(ctx context.Context, root *sandbox.Root, set *conversation.ToolSet, tree config.Tree, budget *agent.Budget, req llm.Request, model llm.Model) (prompt.Prompt, string, error) {
			ch, err := b.fitSystemPrompt(ctx, root, set, tree, budget, req, model)
			return ch.Prompt, ch.Fit.Text, err
		},
		Permissions: permissions,
		Warn:        b.warn,
		BackupKey:   b.backupKey,
		UserDir:     b.UserDir,
		Hooks:       b.hookRunner,
	}
}
