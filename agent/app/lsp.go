package app

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/conversation"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/lsp"
	"github.com/agentcli/agent/tools/programs"
	"github.com/agentcli/agent/tools/shell"
)

// lspManager is the language servers of a conversation, nil when [lsp]
// turns them off: each server started in the sandbox on the first read
// or write of a file it serves, its diagnostics added to the responses
// of the calls that change files.
func (b *Builder) lspManager(in conversation.ToolInput) *lsp.Manager {
	if !in.Cfg.LSP.On() {
		return nil
	}
	servers, missing := LSPServers(in.Cfg, in.Root, in.Programs)
	return lsp.New(lsp.Options{
		Root: in.Root, Servers: servers, Missing: missing,
		Command:   lspSandbox(in.Cfg, in.Root, in.Programs, conversation.OtherRecords(b.UserDir, in.Root)),
		Read:      in.Files.Root().ReadText,
		Warnings:  in.Cfg.LSP.Warnings,
		Version:   b.Version,
		FirstWait: b.LSPWait, Wait: b.LSPWait,
		StatusFile: lsp.StatusPath(in.Root),
		Prepare:    func() error { return conversation.EnsureStateDir(in.Root) },
	})
}

// LSPServers are the language servers that may start in the project at
// root, the preferred first, each with its program found: the servers
// of [lsp.NAME] tables, then the known ones (lsp.Known) as those tables
// change them; one whose program is not on the trusted PATH is in
// missing, with why, and one turned off in neither.
func LSPServers(cfg config.Config, root string, progs *programs.Resolver) (servers []lsp.Spec, missing map[string]string) {
	missing = map[string]string{}
	var specs []lsp.Spec
	for _, name := range slices.Sorted(maps.Keys(cfg.LSP.Servers)) {
		if !slices.ContainsFunc(lsp.Known, func(k lsp.Spec) bool { return k.Name == name }) {
			specs = append(specs, lspSpec(lsp.Spec{Name: name}, cfg.LSP.Servers[name]))
		}
	}
	for _, k := range lsp.Known {
		if s, ok := cfg.LSP.Servers[k.Name]; ok {
			k = lspSpec(k, s)
		}
		specs = append(specs, k)
	}
	for _, s := range specs {
		if c, ok := cfg.LSP.Servers[s.Name]; ok && !c.IsEnabled() {
			continue
		}
		prog, err := lspProgram(s, root, cfg.LSP.Servers[s.Name], progs)
		if err != nil {
			missing[s.Name] = err.Error()
			continue
		}
		s.Command = prog
		servers = append(servers, s)
	}
	return servers, missing
}

// lspSpec is spec as an [lsp.NAME] table changes it: what the table sets
// replaces what spec had.
func lspSpec(spec lsp.Spec, c config.LSPServer) lsp.Spec {
	spec.Command = cmp.Or(c.Command, spec.Command)
	if c.Args != nil {
		spec.Args = c.Args
	}
	if c.FileTypes != nil {
		spec.FileTypes = c.FileTypes
	}
	if c.RootMarkers != nil {
		spec.RootMarkers = c.RootMarkers
	}
	for _, k := range slices.Sorted(maps.Keys(c.Env)) {
		spec.Env = append(spec.Env, k+"="+c.Env[k])
	}
	return spec
}

// lspProgram is the server program command names: found on the trusted
// PATH, an absolute path, or a path in the project that the project's
// own (trusted) file gave.
func lspProgram(s lsp.Spec, root string, c config.LSPServer, progs *programs.Resolver) (string, error) {
	command := s.Command
	switch {
	case command == "":
		return "", fmt.Errorf("[lsp.%s] has no command", s.Name)
	case c.FromProject && c.Command != "" && !filepath.IsAbs(command) && strings.ContainsRune(command, '/'):
		p := filepath.Join(root, command)
		if !inFolder(root, p) {
			return "", fmt.Errorf("%s is outside the project", command)
		}
		return p, nil
	}
	p, err := progs.Find(command)
	if err != nil {
		return "", fmt.Errorf("%s not found on the trusted PATH", command)
	}
	return p, nil
}

// lspSandbox starts a language server in the sandbox (shell.Sandbox),
// network off: the project read-only (a server runs the project's build
// scripts, plugins and go list, all of it the project's code), the
// server's install folder, its toolchain's and the build caches
// read-only wherever they live, the home hidden, and a cache folder of
// its own, for this project, the only place it writes.
func lspSandbox(cfg config.Config, project string, progs *programs.Resolver, masked []string) func(lsp.Spec, string) (*exec.Cmd, error) {
	return func(spec lsp.Spec, _ string) (*exec.Cmd, error) {
		bwrap, err := shell.FindBwrap(progs.Find)
		if err != nil {
			return nil, fmt.Errorf("a language server runs only in the sandbox: %w", err)
		}
		o := ShellOptions(cfg)
		environ := tools.WithoutSecrets(os.Environ(), cfg.SecretVars(), cfg.SecretValues())
		o.Env = progs.Environ(environ)
		o.Masked = masked
		sb := shell.ProgramSandbox(project, o)
		sb.Bwrap, sb.ReadOnlyRoot = bwrap, true
		cache, err := lspCache(spec.Name, sb.Root)
		if err != nil {
			return nil, err
		}
		sb.Writable = []string{cache}
		readOnly := slices.Clone(sb.ReadOnly)
		readOnly = append(readOnly, serverDirs(spec.Command, sb.Home)...)
		for _, name := range spec.Toolchain {
			if p, err := progs.Find(name); err == nil {
				readOnly = append(readOnly, serverDirs(p, sb.Home)...)
			}
		}
		env := config.EnvMap(o.Env)
		readOnly = append(readOnly, shell.DefaultCaches(env)...)
		if slices.Contains(spec.Toolchain, "cargo") {
			home := env["HOME"]
			readOnly = append(readOnly, cmp.Or(env["RUSTUP_HOME"], filepath.Join(home, ".rustup")), cmp.Or(env["CARGO_HOME"], filepath.Join(home, ".cargo")))
		}
		sb.ReadOnly = slices.Compact(readOnly)
		sb.Env = append(slices.DeleteFunc(slices.Clone(o.Env), func(kv string) bool {
			k, _, _ := strings.Cut(kv, "=")
			return slices.Contains(lspOwnVars, k)
		}),
			"TMPDIR=/tmp", "XDG_CACHE_HOME="+cache, "GOCACHE="+filepath.Join(cache, "go-build"),
			"GOPROXY=off", "GOTOOLCHAIN=local", "CARGO_TARGET_DIR="+filepath.Join(cache, "target"))
		sb.Env = append(sb.Env, spec.Env...)
		return sb.Command(append([]string{spec.Command}, spec.Args...)...)
	}
}

// lspOwnVars are the variables the sandbox of a language server sets
// itself: its caches in its own folder, no download.
var lspOwnVars = []string{"TMPDIR", "XDG_CACHE_HOME", "GOCACHE", "GOPROXY", "GOTOOLCHAIN", "CARGO_TARGET_DIR"}

// lspCache is the cache folder of the server name in the project at
// root: one per project, so that one project's server cannot plant what
// another's reads.
func lspCache(name, root string) (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("a language server needs a cache folder: %w", err)
	}
	sum := sha256.Sum256([]byte(root))
	dir := filepath.Join(base, "agent", "lsp", name+"-"+hex.EncodeToString(sum[:6]))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("make the cache folder of %s: %w", name, err)
	}
	return dir, nil
}

// serverDirs are the folders of a server or toolchain program to show
// read-only: programDirs, and, for a program that is a Node package's
// script, the whole package (its code and node_modules beside it).
func serverDirs(prog, home string) []string {
	dirs := programDirs(prog, home)
	if real, err := filepath.EvalSymlinks(prog); err == nil {
		for d := filepath.Dir(real); d != "/" && !inFolder(d, home) && filepath.Base(d) != "node_modules"; d = filepath.Dir(d) {
			if _, err := os.Stat(filepath.Join(d, "package.json")); err == nil {
				return append(dirs, d)
			}
		}
	}
	return dirs
}

// LSPStatus is the language servers of the project at root as agent lsp
// shows them: each server that may start (its program found), each that
// cannot, and, from what the last conversation left (lsp.StatusPath),
// the state it ended in and its last check. when is that conversation's
// last word; zero when it left none.
func LSPStatus(cfg config.Config, root string, progs *programs.Resolver) (list []lsp.Status, when time.Time) {
	if !cfg.LSP.On() {
		return nil, time.Time{}
	}
	last, when := lsp.LastStatus(lsp.StatusPath(root))
	servers, missing := LSPServers(cfg, root, progs)
	for _, s := range servers {
		st := lsp.Status{Name: s.Name, Program: s.Command, FileTypes: s.FileTypes, State: "available"}
		for _, l := range last {
			if l.Name == s.Name && l.Last != nil {
				st.Root, st.Restarts, st.Last = l.Root, l.Restarts, l.Last
				st.State = "available; last conversation: " + l.State
			}
		}
		list = append(list, st)
	}
	for _, k := range lsp.Known {
		if why, ok := missing[k.Name]; ok {
			list = append(list, lsp.Status{Name: k.Name, FileTypes: k.FileTypes, State: "not found: " + why})
		}
	}
	for _, name := range slices.Sorted(maps.Keys(cfg.LSP.Servers)) {
		if !cfg.LSP.Servers[name].IsEnabled() {
			list = append(list, lsp.Status{Name: name, State: "off ([lsp." + name + "] enabled = false)"})
		}
	}
	return list, when
}
