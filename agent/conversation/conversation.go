package conversation

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/prompt"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/fsedit"
	"github.com/agentcli/agent/tools/sandbox"
)

// Conversation is one conversation with the agent and everything it
// opened: the session and its log, the file tools' read state (saved
// with the session), the project's file sandbox, the tools, the audit
// log, the approval, and the system prompt, which stays byte-identical
// for the whole conversation so provider prompt caches keep hitting.
//
// Run is called from one goroutine at a time; the other operations
// between runs (the chat refuses commands while a reply runs), except
// SetPolicy, Policy and Info, which are safe at any time.
type Conversation struct {
	w    World
	opts Options
	dir  string
	cfg  config.Config

	agent    *agent.Agent
	approval *agent.Approval
	files    *fsedit.Session
	// root is the file tools' sandbox, the one of the conversation:
	// also the instruction files' reader, and what /undo, /redo,
	// /rewind and /backups work through.
	root  *sandbox.Root
	tools *ToolSet
	// prompt is the system prompt as built (its sections).
	prompt prompt.Prompt
	// closers release what the conversation opened, in reverse order.
	closers []func() error

	// planTold is whether the model was last told that plan mode is on
	// (withPlanNote); only Run and the session switches use it.
	planTold bool
	// hookSaid are what hooks fired by a command did (hooks.go), for its
	// reply.
	hookSaid []string
	// initNext makes the next Run /init's turn (PrepareInit).
	initNext bool

	// mu guards the session and the model, which /clear, /resume and
	// /model replace, for Info.
	mu sync.Mutex
}

// Run sends one user message and runs the loop until the model answers,
// then saves what the model read with the session, so a continued
// conversation's writes are not refused as stale. The message is one
// turn of the session and everything the agent writes for it one run, so
// that undo and rewind take back a whole turn, and an "always" answer
// given in it belongs to it. The Run after PrepareInit is /init's turn,
// with its tools (initTools).
func (c *Conversation) Run(ctx context.Context, text string, emit func(agent.Event)) (*agent.Outcome, error) {
	if c.initNext {
		c.initNext = false
		all := c.agent.Tools
		c.agent.Tools = initTools(all)
		defer func() { c.agent.Tools = all }()
	}
	sess := c.Session()
	if strings.TrimSpace(text) != "" {
		if err := c.agent.SubmitPrompt(ctx, text, emit); err != nil {
			return &agent.Outcome{SessionID: sess.ID, Calls: []agent.CallResult{}}, err
		}
		turn, err := sess.BeginTurn(text)
		if err != nil {
			return &agent.Outcome{SessionID: sess.ID, Calls: []agent.CallResult{}}, err
		}
		ctx = sandbox.WithRun(ctx, turn.Run)
		c.approval.SetTurn(turn.N)
	}
	if strings.TrimSpace(text) != "" {
		text = c.withPlanNote(text)
	}
	out, err := c.agent.Run(ctx, text, emit)
	if len(out.Calls) > 0 {
		if serr := saveFileState(c.files, c.dir, sess.ID); serr != nil && err == nil {
			err = serr
		}
	}
	return out, err
}

// Close closes everything the conversation opened, after the
// SessionEnd hooks ran.
func (c *Conversation) Close() error {
	if c.agent != nil && c.agent.Hooks != nil {
		// The person is leaving: nothing to cancel the hooks with but
		// their own time limits.
		c.warnHooks(c.agent.SessionEnded(context.Background(), "exit"))
	}
	var errs []error
	for i := len(c.closers) - 1; i >= 0; i-- {
		errs = append(errs, c.closers[i]())
	}
	c.closers = nil
	return errors.Join(errs...)
}

func (c *Conversation) Session() *agent.Session {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.agent.Session
}

// switchTo makes s the conversation's session, closing the one before.
// What the model read and the "always" answers belonged to the old one:
// the new one starts with the reads recorded with it (none for a new
// session) and no "always" at all.
// The SessionEnd hooks run for the old one and the SessionStart hooks for
// the new one, with why (reason: "clear" or "resume").
func (c *Conversation) switchTo(s *agent.Session, reason string) error {
	c.keepHookLines(c.agent.SessionEnded(context.Background(), reason))
	c.mu.Lock()
	old := c.agent.Session
	c.agent.SetSession(s)
	c.mu.Unlock()
	old.Close()
	c.approval.ForgetAlways(0)
	c.planTold = false
	if err := loadFileState(c.files, c.dir, s.ID); err != nil {
		return err
	}
	c.keepHookLines(c.agent.SessionStarted(context.Background(), reason))
	return nil
}

// Clear starts a new conversation in the same project, with the same
// model, tools and system prompt: a new session that has read no file
// (a rewrite of a file read before is refused as stale) and allowed
// nothing always.
func (c *Conversation) Clear() error {
	return c.switchTo(agent.NewSession(c.dir), "clear")
}

// Resume switches to the project's session id: its messages, and what
// its model had read (instead of, not besides, what this one read).
func (c *Conversation) Resume(id string) error {
	s, err := agent.OpenSession(c.dir, id)
	if err != nil {
		return err
	}
	return c.switchTo(s, "resume")
}

// Sessions lists the project's other sessions, the latest first, at
// most n.
func (c *Conversation) Sessions(n int) ([]string, error) {
	ents, err := os.ReadDir(filepath.Join(c.dir, agent.SessionDir))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	current := c.Session().ID
	var ids []string
	for i := len(ents) - 1; i >= 0 && len(ids) < n; i-- {
		if id, ok := strings.CutSuffix(ents[i].Name(), ".jsonl"); ok && id != current {
			ids = append(ids, id)
		}
	}
	return ids, nil
}

// SetPolicy changes the approval policy; safe while a run goes on.
func (c *Conversation) SetPolicy(p agent.Policy) { c.approval.SetPolicy(p) }

// Policy returns the approval policy in force.
func (c *Conversation) Policy() agent.Policy { return c.approval.Policy() }

// SetAsker sets who is asked about the calls that need a person (the
// chat's dialog, agent run's terminal question), and what the model is
// told when there is nobody (noOne). Call it before the first run.
func (c *Conversation) SetAsker(ask agent.Asker, noOne string) {
	c.approval.Ask, c.approval.NoOneToAsk = ask, noOne
}

// SetUserAsker sets who answers the model's questions (ask_user): the
// chat's choice list, agent run's terminal; nil answers each at once
// that nobody can. Call it before the first run.
func (c *Conversation) SetUserAsker(u tools.UserAsker) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.agent.AskUser = u
}

// Todos returns the model's plan as the session keeps it (todo_write).
func (c *Conversation) Todos() []tools.Todo { return c.Session().Todos() }

// Model returns the conversation's model.
func (c *Conversation) Model() llm.Model {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.agent.Model
}

// SetModel makes m the model from the next run on (agent run wraps the
// configured one to show its waits).
func (c *Conversation) SetModel(m llm.Model) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.agent.Model = m
}

// SwitchModel builds the model spec names ("provider/model", or a model
// of the configured provider) with the conversation's other settings,
// and uses it from the next run on.
func (c *Conversation) SwitchModel(ctx context.Context, spec string) (llm.Model, error) {
	model, cfg, err := c.buildModel(ctx, spec)
	if err != nil {
		return nil, err
	}
	// The budget takes the new model's window: configured or built in,
	// else asked of its server (Ollama, llama.cpp) for what the system
	// prompt needs.
	win, src := cfg.Window()
	hint := ""
	if w, ok := model.(llm.Windowed); ok && win <= 0 {
		told := w.Window(ctx, c.agent.Budget.Need(c.agent.System, llm.Request{}))
		win, src, hint = told.Tokens, told.Source, told.Hint
	}
	c.mu.Lock()
	c.agent.Budget.Window, c.agent.Budget.Source, c.agent.Budget.Hint = win, src, hint
	c.mu.Unlock()
	c.SetModel(model)
	return model, nil
}

// buildModel builds the model spec names with the conversation's other
// settings, and returns the configuration it was built from.
func (c *Conversation) buildModel(ctx context.Context, spec string) (llm.Model, config.Config, error) {
	if err := c.checkModelSpec(spec); err != nil {
		return nil, config.Config{}, err
	}
	flags := c.opts.Flags
	if p, m, ok := strings.Cut(spec, "/"); ok && KnownProvider(p) {
		flags.Provider, flags.Model = p, m
	} else {
		flags.Model = spec
	}
	cfg, err := c.w.Config(ctx, c.dir, flags)
	if err != nil {
		return nil, cfg, err
	}
	if err := missingKeyInWords(cfg); err != nil {
		return nil, cfg, err
	}
	model, err := c.w.Model(ctx, cfg)
	return model, cfg, err
}

// SubAgent is a new agent that works for this conversation (the task
// tool's sub-agents): it shares the conversation's approval (policy,
// the person's rules and answers, who is asked), audit log and thinking
// level, and runs on the conversation's model or, when model names
// one, on that model of the configuration (window then its own when
// known). The caller gives it its tools, session, prompt and budget.
func (c *Conversation) SubAgent(ctx context.Context, name, model string) (*agent.Agent, int, error) {
	window, _ := c.Window()
	m := c.Model()
	if model != "" {
		built, cfg, err := c.buildModel(ctx, model)
		if err != nil {
			return nil, 0, fmt.Errorf("agent %s: model %s: %w", name, model, err)
		}
		m = built
		if w, _ := cfg.Window(); w > 0 {
			window = w
		}
	}
	return &agent.Agent{
		Name:      name,
		Model:     m,
		Approval:  c.approval,
		Audit:     c.agent.Audit,
		Reasoning: c.Reasoning(),
		// Its calls fire the conversation's PreToolUse and PostToolUse
		// hooks; as a sub-agent it fires no Stop of its own.
		Hooks: c.agent.Hooks,
		Sub:   true,
	}, window, nil
}

func KnownProvider(p string) bool {
	_, ok := config.LookupPreset(p)
	return ok
}

// Window is the model's context window in tokens (0 when unknown) and
// where that figure came from.
func (c *Conversation) Window() (tokens int, source string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.agent.Budget.Window, c.agent.Budget.Source
}

// Reasoning is the thinking level the conversation asks of its model.
func (c *Conversation) Reasoning() llm.Reasoning { return c.agent.Reasoning }

// Compact summarises the older turns of the conversation into one.
func (c *Conversation) Compact(ctx context.Context) (llm.Usage, error) {
	return c.agent.Compact(ctx, func(e agent.Event) {
		if e.Type == agent.EventHook {
			c.hookSaid = append(c.hookSaid, e.Text)
		}
	})
}

// Config returns the conversation's configuration.
func (c *Conversation) Config() config.Config { return c.cfg }

// Dir returns the project folder.
func (c *Conversation) Dir() string { return c.dir }

// Root returns the project's file sandbox; the conversation closes it.
func (c *Conversation) Root() *sandbox.Root { return c.root }

// Tools returns the conversation's tool registry.
func (c *Conversation) Tools() *tools.Registry { return c.tools.Reg }

// System returns the system prompt the model is sent.
func (c *Conversation) System() string { return c.agent.System }

// SessionID returns the id of the current session.
func (c *Conversation) SessionID() string { return c.Session().ID }

// DiscardUnanswered removes the current session's log when this
// conversation started it and the model never replied in it (a run that
// failed before its first answer): nothing is left to list or continue.
// It reports whether it did.
func (c *Conversation) DiscardUnanswered() (bool, error) { return c.Session().Discard() }

// SessionPath returns the current session's log file.
func (c *Conversation) SessionPath() string { return c.Session().Path() }

// ReadBudget is how many bytes of a file may go whole into the context
// window now; 0 when the window is not known.
func (c *Conversation) ReadBudget() int { return c.agent.Budget.ReadBudget() }

// systemPrompt returns the conversation's system prompt, in the form
// that fits the model's window. A resumed session keeps the prompt it was
// started with while the tool catalog (and so the form) is the same, so
// that the provider's cache of the prefix still hits; a new catalog (a
// tool added or changed) gets a new prompt.
func (c *Conversation) systemPrompt(ctx context.Context, sess *agent.Session, budget *agent.Budget, req llm.Request, model llm.Model) (string, error) {
	p, text, err := c.w.SystemPrompt(ctx, c.root, c.tools, c.cfg.Tree, budget, req, model)
	if err != nil {
		return "", err
	}
	c.prompt = p
	key := catalogKey(p.Section("tools"))
	if old, oldKey := sess.System(); old != "" && oldKey == key {
		return old, nil
	}
	sess.SetSystem(text, key)
	return text, nil
}

func catalogKey(catalog string) string {
	sum := sha256.Sum256([]byte(catalog))
	return hex.EncodeToString(sum[:8])
}

// projectWatcher tells the loop which project files changed outside the
// agent between two turns, and first what the user undid or redid of the
// agent's own edits (recorded in the session); the files of those are
// not reported again as changed by someone else.
type projectWatcher struct {
	ctx  context.Context
	snap *prompt.Snapshot
	c    *Conversation // for its current session (/clear, /resume switch it)
}

func (w *projectWatcher) Changes(ours []string) string {
	note, undone := w.c.Session().TakeNotes()
	ours = append(slices.Clip(ours), undone...)
	changed := w.snap.Changes(w.ctx, ours)
	switch {
	case note == "":
		return changed
	case changed == "":
		return note
	}
	return note + "\n" + changed
}
