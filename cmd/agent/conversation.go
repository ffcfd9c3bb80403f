package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/prompt"
	"github.com/agentcli/agent/tools/fsedit"
)

// convOptions say which conversation to build.
type convOptions struct {
	// dir is the project folder, absolute.
	dir string
	// flags override the configuration.
	flags config.Flags
	// sessionID resumes that session; continueLast resumes the project's
	// last one; neither starts a new one.
	sessionID    string
	continueLast bool
	// model, when set, is used instead of the configured provider (the
	// demo's scripted model); the configuration is then loaded without
	// needing a provider.
	model llm.Model
	// system, when set, is the system prompt instead of the built one.
	system string
	// approval is the approval hook; its policy defaults to the
	// configured one.
	approval agent.Approval
}

// conversation is one conversation with everything it opened: the
// session and its log, the file tools' read state (saved with the
// session), the audit log, the tools, and the system prompt, which stays
// byte-identical for the whole conversation so provider prompt caches
// keep hitting.
type conversation struct {
	agent *agent.Agent
	root  string
	cfg   config.Config
	files *fsedit.Session
	tools *toolSet
	// prompt is the system prompt as built (its sections), for `agent
	// prompt` and the chat's /prompt.
	prompt prompt.Prompt
	// closers release what the conversation opened, in reverse order.
	closers []func() error

	// fileRoot is the file tools' sandbox, which also reads the
	// instruction files for the prompt.
	fileRoot *fsedit.Root
}

// newConversation builds the conversation o asks for.
func (f *factory) newConversation(ctx context.Context, o convOptions) (c *conversation, err error) {
	c = &conversation{root: o.dir}
	defer func() {
		if err != nil {
			c.Close()
			c = nil
		}
	}()
	sess, err := openSession(o.dir, o.sessionID, o.continueLast)
	if err != nil {
		return c, err
	}
	c.closers = append(c.closers, sess.Close)
	if o.model != nil {
		c.cfg, err = f.localConfig(o.dir)
	} else {
		c.cfg, err = f.loadConfig(ctx, o.dir, o.flags)
	}
	if errors.Is(err, config.ErrUnknownProvider) && o.flags.Provider != "" {
		return c, usageError{err} // a mistyped --provider is bad usage
	}
	if err != nil {
		return c, err
	}
	model := o.model
	if model == nil {
		if model, err = f.model(ctx, c.cfg); err != nil {
			return c, err
		}
	}

	if len(c.cfg.Files.ExtraExtensions) > 0 {
		fmt.Fprintf(f.io.ErrOut, "agent: note: files.extra_extensions (from %s) is no longer needed and is ignored: every text file is editable\n", safeText(c.cfg.Origin("files.extra_extensions")))
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
	fr := f.fileRootWith(o.dir, opts)
	c.fileRoot = fr
	c.closers = append(c.closers, fr.Close)
	if err := fr.CheckStateDir("sessions"); err != nil {
		return c, err
	}
	// Before the first write of state: .agent/ starts with a .gitignore.
	if err := ensureStateDir(o.dir); err != nil {
		return c, err
	}
	f.backupKey() // a key that cannot be kept is said now, not mid-chat
	c.files = fsedit.NewSession(fr)
	budget.Reads = c.files
	if err := loadFileState(c.files, o.dir, sess.ID); err != nil {
		return c, err
	}
	if c.tools, err = f.buildTools(ctx, toolBuild{root: o.dir, cfg: c.cfg, files: c.files, env: f.environ(), warn: f.warn}); err != nil {
		return c, err
	}
	c.closers = append(c.closers, c.tools.Close)

	system := o.system
	if system == "" {
		if system, err = c.systemPrompt(ctx, f, sess, budget, llm.Request{Reasoning: reasoning}, model); err != nil {
			return c, err
		}
	}
	audit := agent.NewAudit(o.dir)
	c.closers = append(c.closers, audit.Close)
	if err := audit.Check(); err != nil { // before the model is asked, not mid-turn
		return c, err
	}

	approval := o.approval
	if approval.Policy == "" {
		approval.Policy = agent.Policy(c.cfg.Approval)
	}
	if o.model == nil { // the demos' scripted runs keep to their own script
		if approval.Permissions, err = permissions(c.cfg, fr); err != nil {
			return c, err
		}
	}
	watcher := &projectWatcher{ctx: ctx, snap: prompt.TakeSnapshot(ctx, o.dir)}
	c.agent = &agent.Agent{
		Model:         model,
		Tools:         c.tools.reg,
		Session:       sess,
		System:        system,
		MaxIterations: c.cfg.MaxIterations,
		Approval:      approval,
		Audit:         audit,
		Watcher:       watcher,
		Notices:       c.tools.jobs, // background jobs that ended
		Reasoning:     reasoning,
		Budget:        budget,
		Instructions:  prompt.NewNested(o.dir, 0, fr).For,
		Unshown:       c.prompt.Unshown,
	}
	watcher.agent = c.agent
	return c, nil
}

// systemPrompt returns the conversation's system prompt, in the form
// that fits the model's window. A resumed session keeps the prompt it was
// started with while the tool catalog (and so the form) is the same, so
// that the provider's cache of the prefix still hits; a new catalog (a
// tool added or changed) gets a new prompt.
func (c *conversation) systemPrompt(ctx context.Context, f *factory, sess *agent.Session, budget *agent.Budget, req llm.Request, model llm.Model) (string, error) {
	ch, err := f.fitSystemPrompt(ctx, c.fileRoot, c.tools, c.cfg.Tree, budget, req, model)
	if err != nil {
		return "", err
	}
	c.prompt = ch.prompt
	key := catalogKey(ch.prompt.Section("tools"))
	if old, oldKey := sess.System(); old != "" && oldKey == key {
		return old, nil
	}
	sess.SetSystem(ch.fit.Text, key)
	return ch.fit.Text, nil
}

func catalogKey(catalog string) string {
	sum := sha256.Sum256([]byte(catalog))
	return hex.EncodeToString(sum[:8])
}

// Run sends one user message and runs the loop until the model answers,
// then saves what the model read with the session, so a continued
// conversation's writes are not refused as stale. The message is one
// turn of the session and everything the agent writes for it one run, so
// that undo and rewind take back a whole turn.
func (c *conversation) Run(ctx context.Context, text string, emit func(agent.Event)) (*agent.Outcome, error) {
	if strings.TrimSpace(text) != "" {
		turn, err := c.agent.Session.BeginTurn(text)
		if err != nil {
			return &agent.Outcome{SessionID: c.agent.Session.ID, Calls: []agent.CallResult{}}, err
		}
		ctx = fsedit.WithRun(ctx, turn.Run)
	}
	out, err := c.agent.Run(ctx, text, emit)
	if len(out.Calls) > 0 {
		if serr := saveFileState(c.files, c.root, c.agent.Session.ID); serr != nil && err == nil {
			err = serr
		}
	}
	return out, err
}

// Close closes everything the conversation opened.
func (c *conversation) Close() error {
	var errs []error
	for i := len(c.closers) - 1; i >= 0; i-- {
		errs = append(errs, c.closers[i]())
	}
	c.closers = nil
	return errors.Join(errs...)
}

// openSession starts or resumes the conversation the flags ask for.
func openSession(root, id string, continueLast bool) (*agent.Session, error) {
	if continueLast {
		last, err := agent.LastSession(root)
		if err != nil {
			return nil, usageError{fmt.Errorf("--continue: %w", err)}
		}
		id = last
	}
	if id == "" {
		return agent.NewSession(root), nil
	}
	s, err := agent.OpenSession(root, id)
	if errors.Is(err, agent.ErrNoSession) {
		return nil, usageError{err}
	}
	return s, err
}

// projectWatcher tells the loop which project files changed outside the
// agent between two turns, and first what the user undid or redid of the
// agent's own edits (recorded in the session); the files of those are
// not reported again as changed by someone else.
type projectWatcher struct {
	ctx   context.Context
	snap  *prompt.Snapshot
	agent *agent.Agent // for its current session (the chat may switch it)
}

func (w *projectWatcher) Changes(ours []string) string {
	var note string
	if w.agent != nil {
		var undone []string
		note, undone = w.agent.Session.TakeNotes()
		ours = append(slices.Clip(ours), undone...)
	}
	changed := w.snap.Changes(w.ctx, ours)
	switch {
	case note == "":
		return changed
	case changed == "":
		return note
	}
	return note + "\n" + changed
}

// fileStatePath is where the file tools' knowledge of a session (which
// files the model read, and in what state) is kept between runs.
func fileStatePath(root, sessionID string) string {
	return filepath.Join(root, agent.SessionDir, sessionID+".files.json")
}

// loadFileState restores what the model of a continued session had read,
// so its writes are not refused as stale. A missing state is no error.
func loadFileState(files *fsedit.Session, root, sessionID string) error {
	f, err := os.Open(fileStatePath(root, sessionID))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read file state: %w", err)
	}
	defer f.Close()
	if err := files.LoadState(f); err != nil {
		return fmt.Errorf("read file state: %w", err)
	}
	return nil
}

// saveFileState writes the file session's state next to the session log,
// through a synced temporary file so a crash never leaves half a state.
func saveFileState(files *fsedit.Session, root, sessionID string) error {
	path := fileStatePath(root, sessionID)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("save file state: %w", err)
	}
	if err := writeAtomically(path, files.SaveState); err != nil {
		return fmt.Errorf("save file state: %w", err)
	}
	return nil
}
