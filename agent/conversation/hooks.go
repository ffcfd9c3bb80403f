package conversation

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/hooks"
)

// The conversation's hooks (package hooks): the loop fires those of the
// steps of a run (the Notifications too); the conversation those of its
// own life (SessionStart, SessionEnd, UserPromptSubmit).

// openHooks gives the loop the configured hooks (none for a scripted
// model: a script keeps to itself), and fires SessionStart.
func (c *Conversation) openHooks(ctx context.Context) error {
	if c.w.Hooks == nil || c.opts.Model != nil {
		return nil
	}
	r, err := c.w.Hooks(c.cfg, c.dir)
	if err != nil {
		return err
	}
	c.agent.Hooks = r
	source := "startup"
	if c.opts.SessionID != "" || c.opts.Continue {
		source = "resume"
	}
	c.warnHooks(c.agent.SessionStarted(ctx, source))
	return nil
}

// warnHooks says what hooks fired outside a run did, one line each:
// when the conversation opens and closes, where no face owns the
// terminal.
func (c *Conversation) warnHooks(reports []hooks.Report) {
	for _, r := range reports {
		c.w.warn(r.Text())
	}
}

// keepHookLines keeps what hooks fired by a command did (/clear,
// /resume), for its reply: the chat owns the terminal then.
func (c *Conversation) keepHookLines(reports []hooks.Report) {
	for _, r := range reports {
		c.hookSaid = append(c.hookSaid, r.Text())
	}
}

// withHookLines is a command's reply with what its hooks did.
func (c *Conversation) withHookLines(r Reply) Reply {
	for _, l := range c.hookSaid {
		r.Text += "\n\n" + l
	}
	c.hookSaid = nil
	return r
}

// Notify fires the Notification hooks with n (agent.Agent.Notify): the
// loop does at each approval question, each ask_user question and each
// turn's end, with its EventNotification; a face that waits for the
// person in another way calls this. What the hooks did shows where ctx
// says (agent.WithHookEvents).
func (c *Conversation) Notify(ctx context.Context, n agent.Notification) {
	c.agent.Notify(ctx, n)
}

// FireHook fires the hooks of in's event (agent.Agent.FireHook): a tool
// that runs a sub-agent fires SubagentStop with it.
func (c *Conversation) FireHook(ctx context.Context, in hooks.Input) hooks.Outcome {
	return c.agent.FireHook(ctx, in)
}

// hooksCommand lists the hooks: the configured ones with where they come
// from, and those of an untrusted project, which do not run.
func (c *Conversation) hooksCommand(context.Context, string) (Reply, error) {
	var b strings.Builder
	list := c.agent.Hooks.Hooks()
	if c.opts.Model != nil {
		b.WriteString("No hooks run in this conversation: its model is a script.\n")
	} else if len(list) == 0 {
		b.WriteString("No hooks are configured ([[hooks.EVENT]] in config.toml; see docs/hooks.md).\n")
	}
	for _, h := range list {
		fmt.Fprintf(&b, "- %s\n", hookLine(h))
	}
	if slices.ContainsFunc(c.cfg.Ignored, func(i config.Ignored) bool { return i.Key == "hooks" && !i.UserOnly }) {
		b.WriteString("\nThe project's own hooks wait for its trust: they do not run (agent hooks lists them).\n")
	}
	return Reply{Text: b.String()}, nil
}

// hookLine describes a hook in one line, for a person: its event,
// matcher, command, limit and format, and where it comes from.
func hookLine(h hooks.Hook) string {
	s := string(h.Event)
	if h.Matcher != "" {
		s += " " + h.Matcher
	}
	s += ": " + h.Command
	var notes []string
	if h.Timeout > 0 {
		notes = append(notes, "timeout "+h.Timeout.String())
	}
	if h.Claude {
		notes = append(notes, "claude format")
	}
	where := "your config"
	if h.Project {
		where = "the project's config, in the sandbox"
	}
	notes = append(notes, "from "+where+" ("+h.Origin+")")
	return s + " (" + strings.Join(notes, ", ") + ")"
}
