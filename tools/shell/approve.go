package shell

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentcli/agent/internal/termtext"
	"github.com/agentcli/agent/tools"
)

// shellMeta are the characters that let one command line run more than
// one program or redirect where output goes. A command holding any of
// them never matches an allow rule: "go test ./... ; rm -rf src" must be
// asked about even when "go test" is allowed.
const shellMeta = ";&|`$><()\\\n\r"

// hasMeta reports whether cmd holds a shell metacharacter.
func hasMeta(cmd string) bool { return strings.ContainsAny(cmd, shellMeta) }

// matchPrefix reports whether cmd starts with one of prefixes, word by
// word: "go test" matches "go test ./..." but not "go testify". A command
// with shell metacharacters matches nothing.
func matchPrefix(cmd string, prefixes []string) bool {
	if hasMeta(cmd) {
		return false
	}
	words := strings.Fields(cmd)
	for _, p := range prefixes {
		pw := strings.Fields(p)
		if len(pw) == 0 || len(pw) > len(words) {
			continue
		}
		ok := true
		for i := range pw {
			ok = ok && pw[i] == words[i]
		}
		if ok {
			return true
		}
	}
	return false
}

// scope is what an "always" answer covers: the command's first two words,
// or the exact command when it holds metacharacters (so that "always" for
// "go test ./... && curl x" can never cover another command).
func scope(cmd string) (key, label string) {
	if hasMeta(cmd) {
		return "run_command:" + cmd, "exactly this command"
	}
	words := strings.Fields(cmd)
	words = words[:min(2, len(words))]
	p := strings.Join(words, " ")
	return "run_command:" + p, "commands starting with " + p
}

// Allowed reports whether the call may run without asking: its command
// matches one of the user's allow prefixes and the sandbox is on. With
// the sandbox off every command is asked about.
func (t *Tool) Allowed(in tools.Input) bool {
	if t.opts.NoSandbox {
		return false
	}
	cmd, _ := in.Values["command"].(string)
	return matchPrefix(cmd, t.opts.Allow)
}

// Sandboxed reports whether commands run under bubblewrap. When false the
// loop must ask about every call, even under an "auto" policy, and must
// not remember an "always" answer.
func (t *Tool) Sandboxed() bool { return !t.opts.NoSandbox }

// network reports whether cmd gets the network.
func (t *Tool) network(cmd string) bool {
	return t.opts.Network || t.opts.NoSandbox || matchPrefix(cmd, t.opts.NetworkAllow)
}

// Preview shows what the call would run, where, and with what access. A
// call that cannot run (no command, a bad timeout, no bubblewrap) is
// answered without asking anyone.
func (t *Tool) Preview(_ context.Context, in tools.Input) (tools.Preview, *tools.Result, error) {
	c, res := t.parse(in)
	if res != nil {
		return tools.Preview{}, res, nil
	}
	if res := t.ready(); res != nil {
		return tools.Preview{}, res, nil
	}
	net := "off"
	if t.network(c.command) {
		net = "on"
	}
	sandbox := "bubblewrap: project writable except its git repositories and .agent, home hidden, system read-only"
	if t.opts.NoSandbox {
		sandbox = "OFF (shell.sandbox = \"off\"): the command runs with all your permissions"
	}
	key, label := scope(c.command)
	timeout := fmt.Sprintf("timeout: %s", c.timeout)
	if c.background {
		timeout = "background job: the conversation goes on while it runs; it is stopped when the conversation ends"
		if c.timeout > 0 {
			timeout += fmt.Sprintf(" or after %s", c.timeout)
		}
	}
	return tools.Preview{
		Summary: "run " + summary(c.command),
		Lines: []string{
			"command: " + c.command,
			"folder: " + t.root,
			"network: " + net,
			"sandbox: " + sandbox,
			timeout,
			"agent undo cannot revert a command's changes",
		},
		Scope:      key,
		ScopeLabel: label,
	}, nil, nil
}

// summary is the command on one line, shortened for a title; the preview's
// lines always show it whole.
func summary(cmd string) string {
	return termtext.Clip(termtext.OneLine(cmd), 60)
}
