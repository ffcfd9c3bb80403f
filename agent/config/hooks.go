package config

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// Hooks are the programs run at the agent's steps, by event: each a list
// of [[hooks.EVENT]] tables, on Claude Code's contract (docs/hooks.md).
// The person's own file's hooks come first, then a trusted project's.
type Hooks struct {
	SessionStart     []Hook `toml:"SessionStart"`
	UserPromptSubmit []Hook `toml:"UserPromptSubmit"`
	PreToolUse       []Hook `toml:"PreToolUse"`
	PostToolUse      []Hook `toml:"PostToolUse"`
	Notification     []Hook `toml:"Notification"`
	Stop             []Hook `toml:"Stop"`
	SubagentStop     []Hook `toml:"SubagentStop"`
	PreCompact       []Hook `toml:"PreCompact"`
	SessionEnd       []Hook `toml:"SessionEnd"`
}

// Hook is one [[hooks.EVENT]] table.
type Hook struct {
	// Matcher is a regular expression over tool names (PreToolUse,
	// PostToolUse only); "" matches every tool.
	Matcher string `toml:"matcher"`
	// Command is run with sh -c in the project folder.
	Command string `toml:"command"`
	// Timeout is its time limit; 60s when unset.
	Timeout Duration `toml:"timeout"`
	// Format is "" (the agent's tool names and parameters) or "claude"
	// (Claude Code's).
	Format string `toml:"format"`

	// Origin is the file that defines the hook; FromProject is true for
	// the project's own, which runs only once the project is trusted,
	// and then in the sandbox.
	Origin      string `toml:"-"`
	FromProject bool   `toml:"-"`
}

// NamedHook is a hook with its event.
type NamedHook struct {
	Event string
	Hook
}

// lists are the event names with their lists, in the order of a session.
func (h *Hooks) lists() []struct {
	event string
	list  *[]Hook
} {
	return []struct {
		event string
		list  *[]Hook
	}{
		{"SessionStart", &h.SessionStart}, {"UserPromptSubmit", &h.UserPromptSubmit},
		{"PreToolUse", &h.PreToolUse}, {"PostToolUse", &h.PostToolUse},
		{"Notification", &h.Notification}, {"Stop", &h.Stop}, {"SubagentStop", &h.SubagentStop},
		{"PreCompact", &h.PreCompact}, {"SessionEnd", &h.SessionEnd},
	}
}

// All are the hooks by event, each event's in config order.
func (h Hooks) All() []NamedHook {
	var out []NamedHook
	for _, l := range h.lists() {
		for _, hk := range *l.list {
			out = append(out, NamedHook{Event: l.event, Hook: hk})
		}
	}
	return out
}

// after is h with the hooks the file at path just defined (in next)
// after its own: a TOML file's [[hooks.EVENT]] replaces the list, where
// the hooks of every file add up.
func (h Hooks) after(next Hooks, path string) Hooks {
	project := filepath.Base(filepath.Dir(path)) == ".agent"
	out := h
	theirs := next.lists()
	for i, l := range out.lists() {
		merged := append([]Hook(nil), *l.list...)
		for _, hk := range *theirs[i].list {
			hk.Origin, hk.FromProject = path, project
			merged = append(merged, hk)
		}
		*l.list = merged
	}
	return out
}

// toolEvents take a matcher.
var toolEvents = map[string]bool{"PreToolUse": true, "PostToolUse": true}

// validateHooks checks every hook: a command, a known format, a
// matcher only where there is a tool to match, and one that is a
// regular expression.
func (c *Config) validateHooks() error {
	for _, l := range c.Hooks.lists() {
		for i, h := range *l.list {
			name := fmt.Sprintf("hooks.%s[%d]", l.event, i)
			bad := func(what string) error { return fmt.Errorf("%s (from %s): %s", name, h.Origin, what) }
			switch {
			case strings.TrimSpace(h.Command) == "":
				return bad("command is empty: give the shell line to run")
			case h.Format != "" && h.Format != "claude":
				return bad(fmt.Sprintf("format = %s: use \"claude\" for Claude Code's tool names and parameters, or leave it out", strconv.Quote(h.Format)))
			case h.Timeout < 0:
				return bad("timeout must be positive, like 30s")
			case h.Matcher != "" && !toolEvents[l.event]:
				return bad(fmt.Sprintf("%s has no tool to match: remove matcher (only PreToolUse and PostToolUse take one)", l.event))
			}
			if h.Matcher != "" && h.Matcher != "*" {
				if _, err := regexp.Compile(h.Matcher); err != nil {
					return bad(fmt.Sprintf("matcher %s is not a regular expression: %v", strconv.Quote(h.Matcher), err))
				}
			}
		}
	}
	return nil
}

// writeHooks prints the [[hooks.EVENT]] tables, each with the file it
// came from.
func (c *Config) writeHooks(b *strings.Builder) {
	for _, h := range c.Hooks.All() {
		fmt.Fprintf(b, "\n[[hooks.%s]]%*s # %s\n", h.Event, max(0, 44-len(h.Event)-10), "", h.Origin)
		if h.Matcher != "" {
			fmt.Fprintf(b, "matcher = %s\n", strconv.Quote(h.Matcher))
		}
		fmt.Fprintf(b, "command = %s\n", strconv.Quote(h.Command))
		if h.Timeout != 0 {
			fmt.Fprintf(b, "timeout = %s\n", strconv.Quote(h.Timeout.String()))
		}
		if h.Format != "" {
			fmt.Fprintf(b, "format = %s\n", strconv.Quote(h.Format))
		}
	}
}

// UntrustedHooks are the hooks of the project at root that an untrusted
// project does not run, read as a trusted project's config would be,
// only to be shown (agent hooks); nil when there are none, or the
// project's config cannot be read that way.
func UntrustedHooks(env map[string]string, root string) []NamedHook {
	cfg, err := Load(Input{Files: DefaultFiles(env, root), Project: ProjectFile(root), Trusted: true, Env: env})
	if err != nil && !errors.Is(err, ErrNoProvider) {
		return nil
	}
	var out []NamedHook
	for _, h := range cfg.Hooks.All() {
		if h.FromProject {
			out = append(out, h)
		}
	}
	return out
}

// projectHookCommands are the shell lines of the hooks of the project's
// own config file, as written, for the trust: the files they run are
// covered by it (HookFiles).
func projectHookCommands(root string) []string {
	var f struct {
		Hooks Hooks `toml:"hooks"`
	}
	if !decodeProjectFile(root, &f) {
		return nil
	}
	var out []string
	for _, h := range f.Hooks.All() {
		out = append(out, h.Command)
	}
	return out
}
