package mcptool

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/programs"
)

// baseVars are the variables every server program gets from the agent's
// environment: enough to find programs, a home for its caches, the
// locale and the terminal type. Anything else it needs, its entry names
// in env, where the person trusting it sees it.
var baseVars = []string{"PATH", "HOME", "USER", "LANG", "TERM", "TMPDIR"}

func baseVar(name string) bool {
	return slices.Contains(baseVars, name) || strings.HasPrefix(name, "LC_")
}

// serverEnv is the environment of the server program s: the base of
// environ and s's own Env, without the agent's secrets (and, for a
// project's server, without them in its Env either, whole or inside a
// longer value). A base variable that looks like a secret
// (tools.LooksSecret: an LC_ variable holding a password URL or a token
// such as ghp_...) is left out too: the server's entry names what it
// needs.
func serverEnv(environ, secrets, values []string, s Spec) []string {
	secret := tools.SecretTest(environ, secrets, values)
	var env []string
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok && baseVar(k) && !secret(k, v) && !tools.LooksSecret(k, v) {
			env = append(env, kv)
		}
	}
	keys := make([]string, 0, len(s.Env))
	for k := range s.Env {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if v := s.Env[k]; !s.FromProject || !secret(k, v) {
			env = append(env, k+"="+v)
		}
	}
	return env
}

func (cn *conn) environ() []string {
	if cn.opts.Environ != nil {
		return cn.opts.Environ
	}
	return os.Environ()
}

// program is the path of the server's program: a name is looked up
// (never in the project's own folders, see programs), a path is taken
// relative to Dir.
func (cn *conn) program() (string, error) {
	s := cn.spec
	if strings.ContainsRune(s.Command, '/') {
		if !filepath.IsAbs(s.Command) && s.Dir != "" {
			return filepath.Join(s.Dir, s.Command), nil
		}
		return s.Command, nil
	}
	look := cn.opts.LookPath
	if look == nil {
		look = cn.resolver().Find
	}
	return look(s.Command)
}

// resolver is the programs resolver used when Options.LookPath is nil:
// over Environ's PATH, skipping relative entries and the server's Dir.
func (cn *conn) resolver() *programs.Resolver {
	var path string
	for _, kv := range cn.environ() {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	var untrusted []programs.Place
	if dir, err := filepath.Abs(cn.spec.Dir); err == nil && cn.spec.Dir != "" {
		untrusted = append(untrusted, programs.Place{Dir: dir, What: "inside the project"})
	}
	return programs.New(programs.Options{Path: path, Untrusted: untrusted})
}

// childEnviron is the environment a server program's base is taken
// from: Environ, whose PATH the caller made trusted when it gave
// LookPath; else with the PATH entries the resolver distrusts removed,
// so that a "#!/usr/bin/env python3" server does not find its
// interpreter inside the project.
func (cn *conn) childEnviron() []string {
	if cn.opts.LookPath != nil {
		return cn.environ()
	}
	return cn.resolver().Environ(cn.environ())
}
