package shell

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/jobs"
	"github.com/agentcli/agent/tools/programs"
)

// Defaults of Options.
const (
	DefaultTimeout   = 2 * time.Minute
	DefaultMaxTime   = 10 * time.Minute
	DefaultGrace     = 2 * time.Second
	DefaultProcLimit = 512
	DefaultScanFiles = 20000
	DefaultScanTime  = time.Second
	// DefaultTmpSize lets a build put its objects in /tmp (go test -race
	// of a large module) and stops a command filling the memory there.
	DefaultTmpSize = 4 << 30
)

// Ignorer decides which project paths the changed-files scan skips. The
// caller injects the project's gitignore matcher (package prompt's, the
// one the file tree uses), so the list names the files a person cares
// about, not build outputs.
type Ignorer interface {
	// Ignored reports whether rel (slash-separated, relative to the
	// project root) is ignored; isDir says whether it is a folder.
	Ignored(rel string, isDir bool) bool
}

// Options configure run_command. The zero value is valid: a sandboxed
// tool with no allow rules and no network. cmd/agent fills it from the
// user's own config only: a project's files must never widen it.
type Options struct {
	// NoSandbox runs commands without bubblewrap (shell.sandbox = "off").
	// Every command is then asked about, even allowed ones.
	NoSandbox bool
	// Network gives every command the network; NetworkAllow gives it to
	// commands starting with one of these prefixes only.
	Network      bool
	NetworkAllow []string
	// Allow are command prefixes ("go test", "make test") that run
	// without asking, matched word by word; a command holding shell
	// metacharacters never matches.
	Allow []string
	// Caches are folders the command may write besides the project (build
	// caches); nil means DefaultCaches. ToolDirs are folders under the
	// home shown read-only (tools installed there); nil means
	// DefaultToolDirs. Folders that do not exist are skipped.
	Caches, ToolDirs []string
	// Env is the environment commands start from (os.Environ when nil);
	// variables that look like secrets are always removed.
	Env []string
	// Secrets name the variables holding the agent's own secrets (the
	// provider keys, api_key_env's variable, the serve token's): they
	// are removed too, whatever their names, and so is any variable
	// holding one of their values, whole or inside a longer value.
	// SecretValues are secrets known otherwise (the serve token of the
	// user's config, the notes database's URL): any variable holding
	// one is removed as well.
	Secrets, SecretValues []string
	// Programs finds bubblewrap and prlimit, once; nil means a resolver
	// over Env's PATH that skips the folders commands may write (see
	// Writable). Bwrap, when set, is the bubblewrap program instead.
	Programs *programs.Resolver
	Bwrap    string
	// MemoryLimit bounds the memory of one command, in bytes: all its
	// processes together where a memory cgroup can be made, else each
	// one's data (RLIMIT_DATA); DefaultMemoryLimit() when 0.
	MemoryLimit int64
	// TmpSize bounds each of the sandbox's own writable folders (/tmp,
	// /dev/shm, the empty home), in bytes; DefaultTmpSize when 0.
	TmpSize int64
	// Timeout is a command's time limit when the call gives none;
	// MaxTime is the longest a call may ask for.
	Timeout, MaxTime time.Duration
	// Grace is how long a stopped command has between SIGTERM and SIGKILL.
	Grace time.Duration
	// ProcLimit bounds the processes of one command (fork bombs).
	ProcLimit int
	// Budget returns how many bytes of output the result may hold, for
	// the context budget; DefaultBudget when nil or not positive.
	Budget func(ctx context.Context) int
	// Stream receives the output as it comes, stdout and stderr
	// interleaved; tools.Info(ctx) says which call it belongs to. It runs
	// on the reading goroutine and should not block for long.
	Stream func(ctx context.Context, chunk []byte)
	// NewIgnorer builds the gitignore matcher of the project folder dir;
	// nil, or an error, means only .git and .agent are skipped.
	NewIgnorer func(dir string) (Ignorer, error)
	// Jobs runs the commands of calls with background = true as
	// background jobs; nil offers no background parameter.
	Jobs *jobs.Manager
	// ScanFiles and ScanTime bound the changed-files scan; beyond them
	// the result says the list was not made.
	ScanFiles int
	ScanTime  time.Duration
	// Watch is the git guard of the project's programs that run beside
	// the conversation (its MCP servers): asked before each command, so
	// that what they planted is moved away and told, not taken for the
	// person's (GitWatch). Nil for none.
	Watch *GitWatch
	// Masked are the .agent folders of the other projects where the
	// agent keeps records: commands see them empty and read-only, like
	// those of the folders above the project (Sandbox.Masked).
	Masked []string
	// GitScanTime bounds each walk of the git guard, which has no other
	// bound (DefaultGitScanTime when 0): a walk after a command that
	// runs out of it stops the turn (tools.Result.Halt).
	GitScanTime time.Duration
}

func (o Options) withDefaults() Options {
	if o.Env == nil {
		o.Env = os.Environ()
	}
	env := envMap(o.Env)
	if o.Caches == nil {
		o.Caches = DefaultCaches(env)
	}
	if o.ToolDirs == nil {
		o.ToolDirs = DefaultToolDirs(env)
	}
	o.Caches = absDirs(o.Caches, env["HOME"])
	o.ToolDirs = absDirs(o.ToolDirs, env["HOME"])
	o.Env = cleanEnv(o.Env, o.Secrets, o.SecretValues)
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxTime <= 0 {
		o.MaxTime = DefaultMaxTime
	}
	o.Timeout = min(o.Timeout, o.MaxTime)
	if o.Grace <= 0 {
		o.Grace = DefaultGrace
	}
	if o.ProcLimit <= 0 {
		o.ProcLimit = DefaultProcLimit
	}
	if o.ScanFiles <= 0 {
		o.ScanFiles = DefaultScanFiles
	}
	if o.ScanTime <= 0 {
		o.ScanTime = DefaultScanTime
	}
	if o.GitScanTime <= 0 {
		o.GitScanTime = DefaultGitScanTime
	}
	if o.MemoryLimit <= 0 {
		o.MemoryLimit = DefaultMemoryLimit()
	}
	if o.TmpSize <= 0 {
		o.TmpSize = DefaultTmpSize
	}
	return o
}

// Writable are the folders of the host a command in the project folder
// root may write: the project and the caches (after o's defaults). No
// helper program is taken from inside them (package programs).
func Writable(root string, o Options) []programs.Place {
	o = o.withDefaults()
	out := []programs.Place{{Dir: root, What: "inside the project"}}
	for _, d := range o.Caches {
		out = append(out, programs.Place{Dir: d, What: "in a cache sandboxed commands may write"})
	}
	return out
}

func envMap(environ []string) map[string]string {
	m := make(map[string]string, len(environ))
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[k] = v
		}
	}
	return m
}

// DefaultCaches are the build caches of Go (GOCACHE, GOMODCACHE), npm and
// pip, as the environment places them.
func DefaultCaches(env map[string]string) []string {
	home := env["HOME"]
	xdgCache := env["XDG_CACHE_HOME"]
	if xdgCache == "" && home != "" {
		xdgCache = filepath.Join(home, ".cache")
	}
	gopath := strings.Split(env["GOPATH"], string(filepath.ListSeparator))[0]
	if gopath == "" && home != "" {
		gopath = filepath.Join(home, "go")
	}
	pick := func(v, dflt string) string {
		if v != "" {
			return v
		}
		return dflt
	}
	var dirs []string
	add := func(d string, base string) {
		if d != "" && base != "" && filepath.IsAbs(d) {
			dirs = append(dirs, filepath.Clean(d))
		}
	}
	add(pick(env["GOCACHE"], filepath.Join(xdgCache, "go-build")), xdgCache)
	add(pick(env["GOMODCACHE"], filepath.Join(gopath, "pkg", "mod")), gopath)
	add(pick(env["npm_config_cache"], filepath.Join(home, ".npm")), home)
	add(pick(env["PIP_CACHE_DIR"], filepath.Join(xdgCache, "pip")), xdgCache)
	return dirs
}

// DefaultToolDirs are the folders under the home that PATH names (Go's
// bin, pyenv's shims, nvm's bin...), so that tools installed there still
// run. Each entry is shown alone, never its parent: ~/go/bin, not ~/go,
// whose siblings may hold anything (a .npmrc beside a global bin, keys
// beside a tool's folder). A tool that needs more of its installation
// (pyenv's versions) needs that folder in [shell] tool_dirs.
func DefaultToolDirs(env map[string]string) []string {
	home := filepath.Clean(env["HOME"])
	if env["HOME"] == "" || home == "/" {
		return nil
	}
	var dirs []string
	for _, p := range filepath.SplitList(env["PATH"]) {
		p = filepath.Clean(p)
		rel, err := filepath.Rel(home, p)
		if !filepath.IsAbs(p) || err != nil || rel == "." || strings.HasPrefix(rel, "..") {
			continue
		}
		if !slices.Contains(dirs, p) {
			dirs = append(dirs, p)
		}
	}
	return dirs
}

// cleanEnv drops the variables holding the agent's own secrets (names
// and values, see tools.WithoutSecrets) or looking like secrets (API
// keys, tokens, passwords in URLs, the ssh agent's socket): the model
// reads a command's output, and keys must not reach it. It sets a few
// that keep output plain.
func cleanEnv(environ, secrets, values []string) []string {
	environ = tools.WithoutSecrets(environ, secrets, values)
	out := make([]string, 0, len(environ)+3)
	for _, kv := range environ {
		k, _, _ := strings.Cut(kv, "=")
		if up := strings.ToUpper(k); up == "NO_COLOR" || up == "TERM" || up == "TMPDIR" {
			continue
		}
		out = append(out, kv)
	}
	return append(out, "NO_COLOR=1", "TERM=dumb", "TMPDIR=/tmp")
}

// absDirs expands a leading ~/ to home and keeps only absolute paths (a
// relative one would mean a different folder for each project).
func absDirs(dirs []string, home string) []string {
	out := make([]string, 0, len(dirs))
	for _, d := range dirs {
		if rest, ok := strings.CutPrefix(d, "~/"); ok && home != "" {
			d = filepath.Join(home, rest)
		}
		if filepath.IsAbs(d) {
			out = append(out, filepath.Clean(d))
		}
	}
	return out
}

// ProgramSandbox is the sandbox of a program the project at root defines
// (an MCP server; hooks and language servers start the same way), with
// run_command's settings o: the tool folders (ToolDirs, those under the
// home on o.Env's PATH by default) read-only, but none of the caches,
// which the person's own builds trust; o's tmp size and memory limit;
// the home of o.Env hidden. The caller sets Bwrap, Network and Env, and
// adds the program's own folders.
func ProgramSandbox(root string, o Options) Sandbox {
	o = o.withDefaults()
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	return Sandbox{
		Root:        root,
		Home:        envMap(o.Env)["HOME"],
		Masked:      o.Masked,
		ReadOnly:    o.ToolDirs,
		TmpSize:     o.TmpSize,
		MemoryLimit: o.MemoryLimit,
	}
}
