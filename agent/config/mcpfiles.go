package config

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"unicode"

	"github.com/BurntSushi/toml"
)

// MCPFile is a file inside the project that one of the project's own MCP
// servers runs, and what it is now.
type MCPFile struct {
	Rel string // relative to the project folder, slash-separated
	// State is "absent", or what the path is now: for a file inside the
	// project, its real path and the SHA-256 of its content; for a link
	// leading elsewhere, where it leads.
	State string
}

// maxMCPFiles bounds the paths one project's servers can make the agent
// look at.
const maxMCPFiles = 64

// MCPFiles lists the files inside the project at root that its own MCP
// servers (.mcp.json, and [mcp.servers] of its .agent/config.toml) run:
// a command given as a path, each argument naming a path inside the
// project (node server.js, python tools/mcp.py), and each word of an
// argument or an env value that does (sh -c "./run.sh --x", shell code
// such as "cd sub && ./ru?.sh", LD_PRELOAD=./lib.so, NODE_OPTIONS=
// "--require ./hook.js", a PYTHONPATH-like list), whether or not it
// exists yet (a build may make it), after ${VAR} expansion from env. The project's trust
// covers them: a sandboxed command may write the project, so a script
// rewritten since the person trusted the project makes it untrusted
// again. (What they load is not covered: the sandbox the project's
// servers run in is what keeps that from the person's files, unless
// their own [mcp] unsandboxed lets a server out.)
func MCPFiles(root string, env map[string]string) []MCPFile {
	f := newFileNames(root, env)
	for _, s := range projectMCPServers(root) {
		if c := f.expand(s.Command); strings.ContainsRune(c, '/') || strings.ContainsFunc(c, unicode.IsSpace) {
			f.addWords(c)
		}
		for _, a := range s.Args {
			f.addWords(f.expand(a))
		}
		keys := make([]string, 0, len(s.Env))
		for k := range s.Env {
			keys = append(keys, k)
		}
		slices.Sort(keys) // the bound cuts the same paths every time
		for _, k := range keys {
			f.addWords(f.expand(s.Env[k]))
		}
	}
	return f.files()
}

// HookFiles lists the files inside the project at root that the hooks
// of its own config file run, found in their shell lines as MCPFiles
// finds them in a server's (with $AGENT_PROJECT_DIR and
// $CLAUDE_PROJECT_DIR, which a hook is given, read as the project
// folder): the project's trust covers them too.
func HookFiles(root string, env map[string]string) []MCPFile {
	hookEnv := maps.Clone(env)
	if hookEnv == nil {
		hookEnv = map[string]string{}
	}
	hookEnv["AGENT_PROJECT_DIR"], hookEnv["CLAUDE_PROJECT_DIR"] = root, root
	f := newFileNames(root, hookEnv)
	for _, c := range projectHookCommands(root) {
		f.addWords(f.expand(c))
	}
	return f.files()
}

// fileNames gathers the files inside a project that program lines name.
type fileNames struct {
	root, realRoot string
	env            map[string]string
	paths          []string
}

func newFileNames(root string, env map[string]string) *fileNames {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		realRoot = root
	}
	return &fileNames{root: root, realRoot: realRoot, env: env}
}

// expand fills in ${VAR} and $VAR from the environment.
func (f *fileNames) expand(s string) string {
	return os.Expand(s, func(k string) string { return f.env[k] })
}

// add adds arg when it names a path inside the project.
func (f *fileNames) add(arg string) {
	root, realRoot := f.root, f.realRoot
	if arg == "" || strings.Contains(arg, "://") || len(f.paths) >= maxMCPFiles {
		return
	}
	p := arg
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	p = filepath.Clean(p)
	if strings.ContainsAny(arg, "*?[") {
		// A glob: the files it matches now (a new match changes
		// the list, and so the trust).
		matches, _ := filepath.Glob(p)
		for _, m := range matches {
			if len(f.paths) < maxMCPFiles && !slices.Contains(f.paths, m) && (inFolder(root, m) || inFolder(realRoot, realPath(m))) {
				f.paths = append(f.paths, m)
			}
		}
		return
	}
	if _, err := os.Lstat(p); err != nil && !pathLike(arg) {
		return // a word (stdio, a package name), not a file to come
	}
	if inFolder(root, p) || inFolder(realRoot, realPath(p)) {
		if !slices.Contains(f.paths, p) {
			f.paths = append(f.paths, p)
		}
	}
}

// addWords adds each word of v that names a path. v may be shell
// code (sh -c "true;./run.sh", cd sub && ./run.sh): quotes are
// dropped, words split at blanks, the shell's operators and the ':'
// of path lists, globs matched, and each word also taken inside
// each folder another word names (what a cd would make it).
func (f *fileNames) addWords(v string) {
	root := f.root
	v = strings.NewReplacer(`"`, "", `'`, "", `\`, "").Replace(v)
	words := strings.FieldsFunc(v, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune(":;&|()<>`$", r) })
	for i, w := range words {
		if strings.HasPrefix(w, "-") {
			_, w, _ = strings.Cut(w, "=") // --require=./hook.js
		} else if _, val, ok := strings.Cut(w, "="); ok {
			w = val // LD_PRELOAD=./lib.so inside a command line
		}
		words[i] = w
		f.add(w)
	}
	for _, dir := range words {
		if dir == "" {
			continue // an option's empty value, not the project folder
		}
		d := dir
		if !filepath.IsAbs(d) {
			d = filepath.Join(root, d)
		}
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() || !inFolder(root, filepath.Clean(d)) {
			continue
		}
		for _, w := range words {
			if w != dir && w != "" && !filepath.IsAbs(w) {
				f.add(filepath.Join(d, w))
			}
		}
	}
}

// files are the paths gathered, sorted, each with what it is now.
func (f *fileNames) files() []MCPFile {
	slices.Sort(f.paths)
	out := make([]MCPFile, 0, len(f.paths))
	for _, p := range f.paths {
		rel, _ := filepath.Rel(f.root, p)
		out = append(out, MCPFile{Rel: filepath.ToSlash(rel), State: fileState(f.realRoot, p)})
	}
	return out
}

// projectMCPServers are the servers of the project's own files, enabled
// or not: enabling one changes those files, which the trust covers too.
func projectMCPServers(root string) []MCPServer {
	var out []MCPServer
	if fromJSON, err := LoadMCPJSON(filepath.Join(root, ".mcp.json")); err == nil {
		for _, s := range fromJSON {
			out = append(out, s)
		}
	}
	var f struct {
		MCP struct {
			Servers map[string]MCPServer `toml:"servers"`
		} `toml:"mcp"`
	}
	if decodeProjectFile(root, &f) {
		for _, s := range f.MCP.Servers {
			out = append(out, s)
		}
	}
	return out
}

// decodeProjectFile decodes the project's own config file at root into
// v, as written (no trust applied); false when it cannot be read.
func decodeProjectFile(root string, v any) bool {
	data, err := readConfigFile(ProjectFile(root))
	if err != nil {
		return false
	}
	_, err = toml.Decode(string(data), v)
	return err == nil
}

// fileState says what the path p is now (see MCPFile.State).
func fileState(realRoot, p string) string {
	if _, err := os.Lstat(p); err != nil {
		return "absent"
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		target, _ := os.Readlink(p)
		return "broken link to " + target
	}
	if !inFolder(realRoot, real) {
		return "outside the project: " + real
	}
	sum, err := contentHash(real)
	if err != nil {
		return fmt.Sprintf("%s: %v", real, err)
	}
	return real + " " + sum
}

// contentHash is the SHA-256 of the regular file at path; anything else
// (a folder, a FIFO, a device) is an error, not waited on.
func contentHash(path string) (string, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return "", err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", err
	}
	if !fi.Mode().IsRegular() {
		return "", errors.New("not a regular file")
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// pathLike reports whether a missing argument reads as a file's path
// (server.py, dist/index.js) rather than a word or an npm package
// (@scope/server@1.2.3).
func pathLike(arg string) bool {
	return !strings.HasPrefix(arg, "@") && strings.ContainsAny(arg, "/.")
}

// realPath is p with its links resolved, or p when it cannot be.
func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// inFolder reports whether path is dir or lies inside it.
func inFolder(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

// OpaqueMCPServer names a server of the project's own files whose command
// line is shell code that names files in ways MCPFiles cannot follow
// (command substitution, brace or tilde expansion, eval, a variable the
// shell sets itself), or returns "". Such a project's trust holds for one
// start only: it is not remembered, since a script its server runs could
// change unseen.
func OpaqueMCPServer(root string) string {
	for _, s := range projectMCPServers(root) {
		for _, a := range append([]string{s.Command}, s.Args...) {
			if opaque(a) {
				return strings.Join(append([]string{s.Command}, s.Args...), " ")
			}
		}
	}
	return ""
}

// OpaqueHook is, as OpaqueMCPServer, the shell line of a hook of the
// project's own config that names files in ways HookFiles cannot follow,
// or "": such a project's trust holds for one start only.
func OpaqueHook(root string) string {
	for _, c := range projectHookCommands(root) {
		if opaque(c) {
			return c
		}
	}
	return ""
}

// opaque reports whether the program line a names files by shell code
// that cannot be followed without running it.
func opaque(a string) bool {
	a = strings.ReplaceAll(a, "${", "")
	return strings.ContainsAny(a, "`{~") || strings.Contains(a, "$") && !envLike(a) || slices.Contains(strings.Fields(a), "eval")
}

// envLike reports whether every $ of a is a $NAME the agent fills in
// from its environment before it starts the server.
func envLike(a string) bool {
	for i := strings.IndexByte(a, '$'); i >= 0; i = strings.IndexByte(a, '$') {
		a = a[i+1:]
		if a == "" || !(a[0] == '_' || unicode.IsLetter(rune(a[0]))) {
			return false
		}
	}
	return true
}
