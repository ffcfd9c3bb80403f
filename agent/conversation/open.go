package conversation

import (
	"context"
	"errors"
	"time"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/hooks"
	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/prompt"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/fsedit"
	"github.com/agentcli/agent/tools/mcptool"
	"github.com/agentcli/agent/tools/sandbox"
)

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
	// Editor, when set, is the person's editor the file tools read and
	// write through (agent acp: an editor that offers its files).
	Editor *fsedit.Editor
	// MCP are MCP servers the person chose for this conversation (an
	// editor's), started besides the configured ones.
	MCP []mcptool.Spec
}

// World is what a conversation takes from the application that builds
// it (agent/app's Builder): the configuration and the model, the
// project's sandbox, the tools, the system prompt fitted to the model's
// window, the user's permission rules, and where to say a warning.
type World struct {
	// Config loads the configuration of a project folder with flags;
	// LocalConfig loads it for a scripted model (no provider needed).
	Config      func(ctx context.Context, dir string, flags config.Flags) (config.Config, error)
	LocalConfig func(dir string) (config.Config, error)
	// Model builds the configured provider's model.
	Model func(ctx context.Context, cfg config.Config) (llm.Model, error)
	// FileRoot opens the sandbox of the project folder dir.
	FileRoot func(dir string, opts sandbox.Options) *sandbox.Root
	// Tools builds the project's tools around the conversation's file
	// session.
	Tools func(ctx context.Context, in ToolInput) (*ToolSet, error)
	// SystemPrompt builds the system prompt in the form that fits the
	// model's window (asking the model's server for a window budget
	// does not know): its sections, and the text sent.
	SystemPrompt func(ctx context.Context, root *sandbox.Root, set *ToolSet, tree config.Tree, budget *agent.Budget, req llm.Request, model llm.Model) (prompt.Prompt, string, error)
	// Permissions are the user's permission rules over the tools defs.
	Permissions func(cfg config.Config, root *sandbox.Root, defs []tools.Definition) (agent.Permissions, error)
	// Warn says one line to the user; nil says nothing.
	Warn func(string)
	// BackupKey returns the key that signs the backups; nil for none.
	BackupKey func() []byte
	// UserDir is the user's configuration folder ("" for none): its
	// commands folder holds the user's custom commands, and its list of
	// projects the conversation's (RememberProject).
	UserDir string
	// Hooks builds the runner of the configured hooks for the project
	// folder dir (the person's, and a trusted project's in the
	// sandbox); nil runs none.
	Hooks func(cfg config.Config, dir string) (*hooks.Runner, error)
}

func (w World) warn(msg string) {
	if w.Warn != nil {
		w.Warn(msg)
	}
}

// FileOptions maps the configuration's file and backup settings onto the
// file tools' options.
func FileOptions(cfg config.Config) sandbox.Options {
	return sandbox.Options{
		MaxReadBytes:   int64(cfg.Files.ReadLimit),
		BackupMaxAge:   time.Duration(cfg.Backups.MaxAge),
		BackupMaxBytes: int64(cfg.Backups.MaxSize),
		AllowSecrets:   cfg.Files.AllowSecrets,
	}
}

// Open builds the conversation o asks for from w's parts, in the order
// its invariants need: the session, the configuration and model
// (openModel), the sandbox and the read state (openFiles), the tools,
// the system prompt, the audit log and the approval (openLoop). On error
// nothing stays open.
func Open(ctx context.Context, w World, o Options) (c *Conversation, err error) {
	c = &Conversation{w: w, opts: o, dir: o.Dir}
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
	model, err := c.openModel(ctx)
	if err != nil {
		return c, err
	}
	// The context budget: every request fits the model's window, and a
	// whole-file read is sized to what is left of it. A window the
	// configuration does not know is asked of the model with the system
	// prompt (World.SystemPrompt).
	win, src := c.cfg.Window()
	budget := &agent.Budget{Window: win, Source: src}
	reasoning, err := llm.ParseReasoning(c.cfg.EffectiveReasoning())
	if err != nil {
		return c, err
	}
	if err := c.openFiles(budget, sess.ID); err != nil {
		return c, err
	}
	if c.tools, err = w.Tools(ctx, ToolInput{Root: o.Dir, Cfg: c.cfg, Files: c.files, MCP: o.MCP}); err != nil {
		return c, err
	}
	c.closers = append(c.closers, c.tools.Close)
	if err := c.openLoop(ctx, sess, model, budget, reasoning); err != nil {
		return c, err
	}
	if err := c.openHooks(ctx); err != nil {
		return c, err
	}
	if c.tools.Link != nil {
		c.tools.Link(c)
	}
	return c, nil
}

// openModel loads the configuration and builds the model: the one o
// names (a scripted one), else the configured provider's.
func (c *Conversation) openModel(ctx context.Context) (llm.Model, error) {
	w, o := c.w, c.opts
	var err error
	if o.Model != nil {
		c.cfg, err = w.LocalConfig(o.Dir)
	} else {
		c.cfg, err = w.Config(ctx, o.Dir, o.Flags)
	}
	if errors.Is(err, config.ErrUnknownProvider) && o.Flags.Provider != "" {
		return nil, usage(err) // a mistyped --provider is bad usage
	}
	if err != nil {
		return nil, err
	}
	model := o.Model
	if model == nil {
		if model, err = w.Model(ctx, c.cfg); err != nil {
			return nil, err
		}
	}
	if len(c.cfg.Files.ExtraExtensions) > 0 {
		w.warn("note: files.extra_extensions (from " + c.cfg.Origin("files.extra_extensions") + ") is no longer needed and is ignored: every text file is editable")
	}
	return model, nil
}

// openFiles opens the project's sandbox with whole-file reads sized by
// budget, makes the state folder, and starts the file tools' session
// with what the model read in session id.
func (c *Conversation) openFiles(budget *agent.Budget, id string) error {
	w, dir := c.w, c.dir
	opts := FileOptions(c.cfg)
	opts.ReadBudget = budget.ReadBudget
	c.root = w.FileRoot(dir, opts)
	c.closers = append(c.closers, c.root.Close)
	if err := c.root.CheckStateDir("sessions"); err != nil {
		return err
	}
	// Before the first write of state: .agent/ starts with a .gitignore.
	if err := EnsureStateDir(dir); err != nil {
		return err
	}
	if note := StateIgnoreWarning(dir); note != "" {
		w.warn("warning: " + note)
	}
	// Listed, so that the sandboxes of other projects hide its records.
	if err := RememberProject(w.UserDir, dir); err != nil {
		w.warn("warning: " + err.Error())
	}
	if w.BackupKey != nil {
		w.BackupKey() // a key that cannot be kept is said now, not mid-chat
	}
	c.files = fsedit.NewSession(c.root)
	if c.opts.Editor != nil {
		c.files.UseEditor(*c.opts.Editor)
	}
	budget.Reads = c.files
	return loadFileState(c.files, dir, id)
}

// openLoop makes the loop the conversation runs: the system prompt, the
// audit log, the approval with the user's rules, and the agent.Agent
// that ties them to the model, the tools and the session.
func (c *Conversation) openLoop(ctx context.Context, sess *agent.Session, model llm.Model, budget *agent.Budget, reasoning llm.Reasoning) error {
	w, o := c.w, c.opts
	var err error
	system := o.System
	if system == "" {
		if system, err = c.systemPrompt(ctx, sess, budget, llm.Request{Reasoning: reasoning}, model); err != nil {
			return err
		}
	}
	audit := agent.NewAudit(o.Dir)
	c.closers = append(c.closers, audit.Close)
	if err := audit.Check(); err != nil { // before the model is asked, not mid-turn
		return err
	}
	policy := o.Policy
	if policy == "" {
		policy = agent.Policy(c.cfg.Approval)
	}
	c.approval = agent.NewApproval(policy)
	if o.Model == nil { // a scripted run keeps to its own script
		if c.approval.Permissions, err = w.Permissions(c.cfg, c.root, c.tools.Defs()); err != nil {
			return err
		}
	}
	watcher := &projectWatcher{ctx: ctx, snap: prompt.TakeSnapshot(ctx, o.Dir), c: c}
	*c.agent = agent.Agent{
		Model:         model,
		Tools:         c.tools.Reg,
		Session:       sess,
		System:        system,
		MaxIterations: c.cfg.MaxIterations,
		MaxParallel:   c.cfg.Agents.MaxParallel,
		Approval:      c.approval,
		Audit:         audit,
		Watcher:       watcher,
		Notices:       c.tools.notices(),
		Reasoning:     reasoning,
		Budget:        budget,
		Instructions:  prompt.NewNested(o.Dir, 0, c.root).For,
		Unshown:       c.prompt.Unshown,
	}
	return nil
}
