package app

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/hooks"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/programs"
	"github.com/agentcli/agent/tools/shell"
)

// HookList is cfg's hooks as the runner takes them: the person's, then
// a trusted project's (an untrusted project's are not in cfg).
func HookList(cfg config.Config) []hooks.Hook {
	var out []hooks.Hook
	for _, h := range cfg.Hooks.All() {
		out = append(out, hookOf(h))
	}
	return out
}

// UntrustedHooks are the hooks of the project at root that wait for its
// trust (none once it is trusted): agent hooks shows them, not run.
func UntrustedHooks(cfg config.Config, env map[string]string, root string) []hooks.Hook {
	if cfg.ProjectTrusted {
		return nil
	}
	var out []hooks.Hook
	for _, h := range config.UntrustedHooks(env, root) {
		out = append(out, hookOf(h))
	}
	return out
}

func hookOf(h config.NamedHook) hooks.Hook {
	return hooks.Hook{Event: hooks.Event(h.Event), Matcher: h.Matcher, Command: h.Command, Timeout: time.Duration(h.Timeout),
		Claude: h.Format == "claude", Origin: h.Origin, Project: h.FromProject}
}

// hookRunner is the runner of cfg's hooks for the project folder dir;
// nil when none is configured.
func (b *Builder) hookRunner(cfg config.Config, dir string) (*hooks.Runner, error) {
	list := HookList(cfg)
	if len(list) == 0 {
		return nil, nil
	}
	// The folder as the sandbox shows it: its real path.
	root := dir
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		root = real
	}
	return hooks.New(list, hooks.Options{Dir: root, Start: hookStarter(cfg, root, b.programs(dir, cfg))})
}

// hookStarter makes each hook's command: sh -c and its line, in the
// project folder root, with sh found where no command could have planted
// it. The person's own hooks run as the person, with the trusted PATH
// and their environment but the agent's keys. A project's run in the
// sandbox run_command uses (shell.ProgramSandbox): the home hidden, the
// project writable, no network, no secret in its environment; without
// bubblewrap they do not run.
func hookStarter(cfg config.Config, root string, progs *programs.Resolver) func(hooks.Hook, []string) (*exec.Cmd, error) {
	return func(h hooks.Hook, env []string) (*exec.Cmd, error) {
		sh, err := progs.Find("sh")
		if err != nil {
			return nil, err
		}
		if !h.Project {
			cmd := exec.Command(sh, "-c", h.Command)
			cmd.Dir = root
			cmd.Env = append(progs.Environ(withoutAgentKeys(os.Environ(), cfg)), env...)
			return cmd, nil
		}
		bwrap, err := shell.FindBwrap(progs.Find)
		if err != nil {
			return nil, fmt.Errorf("a project's hook runs only in the sandbox: %w", err)
		}
		o := ShellOptions(cfg)
		o.Env = progs.Environ(os.Environ())
		sb := shell.ProgramSandbox(root, o)
		sb.Bwrap = bwrap
		base := tools.WithoutSecrets(progs.Environ(os.Environ()), cfg.SecretVars(), cfg.SecretValues())
		base = slices.DeleteFunc(base, func(kv string) bool { return strings.HasPrefix(kv, "TMPDIR=") })
		sb.Env = append(append(base, "TMPDIR=/tmp"), env...)
		return sb.Command(sh, "-c", h.Command)
	}
}

// withoutAgentKeys is environ without the agent's own keys (the
// provider's, the serve token): a person's hook gets the rest of their
// environment, as their shell would.
func withoutAgentKeys(environ []string, cfg config.Config) []string {
	secret := tools.SecretTest(environ, cfg.SecretVars(), cfg.SecretValues())
	return slices.DeleteFunc(slices.Clone(environ), func(kv string) bool {
		k, v, _ := strings.Cut(kv, "=")
		return secret(k, v)
	})
}
