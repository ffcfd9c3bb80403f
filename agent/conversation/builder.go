package conversation

import (
	"context"
	"errors"
	"time"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/prompt"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/fsedit"
	"github.com/agentcli/agent/tools/notes"
	"github.com/agentcli/agent/tools/programs"
	"github.com/agentcli/agent/tools/sandbox"
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
	Tools func(ctx context.Context, in ToolInput) (*ToolSet, error)

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

	// The settings of the optional tool families (tools.go); a nil hook
	// leaves its family out.

	// Speech is the speech engines' settings for audio_generation.
	Speech func(cfg config.Config) tts.Settings
	// Notes is the project's notes store, opened on first use.
	Notes func(cfg config.Config, root string) notes.Store
	// MCP adds the configured MCP servers' tools to reg and returns what
	// stops them.
	MCP func(ctx context.Context, cfg config.Config, root string, progs *programs.Resolver, reg *tools.Registry) (func() error, error)
}

// Options say which conversation to build.
type Options struct {
	// Dir is the project folder, absolute.
	Dir string
	// Flags override the configuration (provider, model, limits).
	Flags config.Flags
	// SessionID resumes that session; Continue resumes the project's
	// last one; neither starts a new one.
	SessionID string
	Continue  bool
	// Model, when set, is used instead of the configured provider (a
	// scripted model: the demo, the self-checks, tests); the
	// configuration is then loaded without needing a provider, and the
	// user's permission rules are left out: a script keeps to itself.
	Model llm.Model
	// System, when set, is the system prompt instead of the built one.
	System string
	// Policy is the approval policy the conversation starts with; the
	// configured one when empty.
	Policy agent.Policy
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
	return b.fileRoot(dir, fileOptions(cfg))
}

func (b *Builder) fileRoot(dir string, opts sandbox.Options) *sandbox.Root {
	opts.NewIgnorer = func(dir string) (sandbox.Ignorer, error) { return prompt.NewIgnore(dir) }
	opts.BackupKey = b.backupKey
	return sandbox.NewRoot(dir, opts)
}

// fileOptions maps the configuration's file and backup settings onto the
// file tools' options.
func fileOptions(cfg config.Config) sandbox.Options {
	return sandbox.Options{
		MaxReadBytes:   int64(cfg.Files.ReadLimit),
		BackupMaxAge:   time.Duration(cfg.Backups.MaxAge),
		BackupMaxBytes: int64(cfg.Backups.MaxSize),
		AllowSecrets:   cfg.Files.AllowSecrets,
	}
}

// Catalog builds the tools of the project at dir as a conversation has
// them, with a fresh file session, for what only shows or parses them
// (agent tools, parse, prompt) or serves them. The caller closes it.
func (b *Builder) Catalog(ctx context.Context, dir string, cfg config.Config) (*ToolSet, error) {
	fr := b.FileRoot(dir, cfg)
	set, err := b.tools(ctx, ToolInput{Root: dir, Cfg: cfg, Files: fsedit.NewSession(fr)})
	if err != nil {
		fr.Close()
		return nil, err
	}
	set.closers = append([]func() error{fr.Close}, set.closers...)
	return set, nil
}

// ToolSession builds the project's tools around a file session that
// starts with what the model read as saved in the file state (none when
// "" or missing), for agent tool-call, which carries the reads across
// processes as a continued conversation does. save writes the state back
// (atomically) and closes what was opened.
func (b *Builder) ToolSession(ctx context.Context, dir string, cfg config.Config, state string) (reg *tools.Registry, save func() error, err error) {
	if err := EnsureStateDir(dir); err != nil { // backups, notes
		return nil, nil, err
	}
	fr := b.FileRoot(dir, cfg)
	files := fsedit.NewSession(fr)
	if state != "" {
		if err := loadState(files, state); err != nil {
			fr.Close()
			return nil, nil, err
		}
	}
	set, err := b.tools(ctx, ToolInput{Root: dir, Cfg: cfg, Files: files})
	if err != nil {
		fr.Close()
		return nil, nil, err
	}
	save = func() error {
		var err error
		if state != "" {
			err = writeAtomically(state, files.SaveState)
		}
		return errors.Join(err, set.Close(), fr.Close())
	}
	return set.reg, save, nil
}

// New builds the conversation o asks for. On error nothing stays open.
func (b *Builder) New(ctx context.Context, o Options) (c *Conversation, err error) {
	c = &Conversation{b: b, opts: o, dir: o.Dir}
	defer func() {
		if err != nil {
			c.Close()
			c = nil
		}
	}()
	sess, err := openSession(o.Dir, o.SessionID, o.Continue)
	if err != nil {
		return c, err
	}
	c.closers = append(c.closers, func() error { return c.agent.Session.Close() })
	c.agent = &agent.Agent{Session: sess}
	if o.Model != nil {
		c.cfg, err = b.LocalConfig(o.Dir)
	} else {
		c.cfg, err = b.Config(ctx, o.Dir, o.Flags)
	}
	if errors.Is(err, config.ErrUnknownProvider) && o.Flags.Provider != "" {
		return c, usage(err) // a mistyped --provider is bad usage
	}
	if err != nil {
		return c, err
	}
	model := o.Model
	if model == nil {
		if model, err = b.Model(ctx, c.cfg); err != nil {
			return c, err
		}
	}
	if len(c.cfg.Files.ExtraExtensions) > 0 {
		b.warn("note: files.extra_extensions (from " + c.cfg.Origin("files.extra_extensions") + ") is no longer needed and is ignored: every text file is editable")
	}
	// The context budget: every request fits the model's window, and a
	// whole-file read is sized to what is left of it. A window the
	// configuration does not know is asked of the model with the system
	// prompt (see fitSystemPrompt).
	win, src := c.cfg.Window()
	budget := &agent.Budget{Window: win, Source: src}
	reasoning, err := llm.ParseReasoning(c.cfg.EffectiveReasoning())
	if err != nil {
		return c, err
	}
	opts := fileOptions(c.cfg)
	opts.ReadBudget = budget.ReadBudget
	c.root = b.fileRoot(o.Dir, opts)
	c.closers = append(c.closers, c.root.Close)
	if err := c.root.CheckStateDir("sessions"); err != nil {
		return c, err
	}
	// Before the first write of state: .agent/ starts with a .gitignore.
	if err := EnsureStateDir(o.Dir); err != nil {
		return c, err
	}
	if w := StateIgnoreWarning(o.Dir); w != "" {
		b.warn("warning: " + w)
	}
	b.backupKey() // a key that cannot be kept is said now, not mid-chat
	c.files = fsedit.NewSession(c.root)
	budget.Reads = c.files
	if err := loadFileState(c.files, o.Dir, sess.ID); err != nil {
		return c, err
	}
	if c.tools, err = b.tools(ctx, ToolInput{Root: o.Dir, Cfg: c.cfg, Files: c.files}); err != nil {
		return c, err
	}
	c.closers = append(c.closers, c.tools.Close)

	system := o.System
	if system == "" {
		if system, err = c.systemPrompt(ctx, sess, budget, llm.Request{Reasoning: reasoning}, model); err != nil {
			return c, err
		}
	}
	audit := agent.NewAudit(o.Dir)
	c.closers = append(c.closers, audit.Close)
	if err := audit.Check(); err != nil { // before the model is asked, not mid-turn
		return c, err
	}
	policy := o.Policy
	if policy == "" {
		policy = agent.Policy(c.cfg.Approval)
	}
	c.approval = agent.NewApproval(policy)
	if o.Model == nil { // a scripted run keeps to its own script
		if c.approval.Permissions, err = permissions(c.cfg, c.root, c.tools.defs()); err != nil {
			return c, err
		}
	}
	watcher := &projectWatcher{ctx: ctx, snap: prompt.TakeSnapshot(ctx, o.Dir), c: c}
	*c.agent = agent.Agent{
		Model:         model,
		Tools:         c.tools.reg,
		Session:       sess,
		System:        system,
		MaxIterations: c.cfg.MaxIterations,
		Approval:      c.approval,
		Audit:         audit,
		Watcher:       watcher,
		Notices:       c.tools.notices(),
		Reasoning:     reasoning,
		Budget:        budget,
		Instructions:  prompt.NewNested(o.Dir, 0, c.root).For,
		Unshown:       c.prompt.Unshown,
	}
	if c.tools.explorer != nil {
		c.tools.explorer.conv = c
	}
	return c, nil
}
