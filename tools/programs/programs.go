// Package programs finds the helper programs the agent itself starts
// outside the sandbox: bubblewrap, prlimit, espeak-ng, tmux, git, the
// editor, MCP servers.
//
// A sandboxed command may write the project and the build caches. A
// folder of those on PATH (an activated .venv/bin, direnv's PATH_add bin,
// node_modules/.bin) would let one command plant a "bwrap" that the agent
// runs next, without any sandbox. So a program is taken only from a PATH
// entry that is absolute and lies outside every such folder, whose file
// also really lives outside them (links are followed), or from the
// absolute path the user's own config gives it ([programs]). Each name is
// resolved once and remembered: a later plant changes nothing.
package programs

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// Place is a folder a sandboxed command may write, and how to name it in
// a message ("inside the project").
type Place struct {
	Dir  string // absolute
	What string
}

// Options configure a Resolver.
type Options struct {
	// Path is the PATH variable the programs are looked up in.
	Path string
	// Untrusted are the folders a sandboxed command may write: the
	// project and the caches. No program is taken from inside them.
	Untrusted []Place
	// Fixed maps a program name to the absolute path the user's own
	// config gives it ([programs] bwrap = "/usr/bin/bwrap"); it wins
	// over PATH. Never fill it from a project's file.
	Fixed map[string]string
}

// Resolver finds programs by name under its Options, each once. It is
// safe for concurrent use.
type Resolver struct {
	opts      Options
	untrusted []Place // with each folder's real path added

	mu    sync.Mutex
	found map[string]result
}

type result struct {
	path string
	err  error
}

// ErrUntrusted marks a program found only in places a sandboxed command
// may write (or in relative PATH entries), and so not used.
var ErrUntrusted = errors.New("found only in untrusted places")

// NotFoundError says why a program was not found. It unwraps to
// exec.ErrNotFound when the program is nowhere on PATH, to ErrUntrusted
// when it was found only where it is not taken from.
type NotFoundError struct {
	Name string
	// Skipped are the places it was found but not taken, with why:
	// "/proj/.venv/bin, inside the project".
	Skipped []string
	// Fixed is the unusable path [programs] gave it, with why.
	Fixed string
}

func (e *NotFoundError) Error() string {
	switch {
	case e.Fixed != "":
		return fmt.Sprintf("[programs] %s = %s: not used", e.Name, e.Fixed)
	case len(e.Skipped) > 0:
		return fmt.Sprintf("%s found only in %s: not used; set [programs] %s in your config", e.Name, strings.Join(e.Skipped, "; "), e.Name)
	}
	return e.Name + " not found on PATH"
}

// Unwrap says which kind of not found e is.
func (e *NotFoundError) Unwrap() error {
	if len(e.Skipped) > 0 || e.Fixed != "" {
		return ErrUntrusted
	}
	return exec.ErrNotFound
}

// New returns a Resolver for o.
func New(o Options) *Resolver {
	r := &Resolver{opts: o, found: map[string]result{}}
	for _, p := range o.Untrusted {
		if !filepath.IsAbs(p.Dir) {
			continue
		}
		p.Dir = filepath.Clean(p.Dir)
		r.untrusted = append(r.untrusted, p)
		if real, err := filepath.EvalSymlinks(p.Dir); err == nil && real != p.Dir {
			r.untrusted = append(r.untrusted, Place{Dir: real, What: p.What})
		}
	}
	return r
}

// Find returns the path of the program name: the [programs] entry when
// there is one, else the first trusted PATH entry holding it. An
// absolute name is taken as it is, if it can be run. The answer is
// remembered for the Resolver's life.
func (r *Resolver) Find(name string) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if res, ok := r.found[name]; ok {
		return res.path, res.err
	}
	p, err := r.find(name)
	r.found[name] = result{p, err}
	return p, err
}

func (r *Resolver) find(name string) (string, error) {
	switch {
	case name == "":
		return "", errors.New("no program named")
	case filepath.IsAbs(name):
		if err := runnable(name); err != nil {
			return "", fmt.Errorf("%s: %w", name, err)
		}
		return name, nil
	case strings.ContainsRune(name, '/'):
		return "", fmt.Errorf("%s: give a program name or an absolute path", name)
	}
	if fixed, ok := r.opts.Fixed[name]; ok {
		if !filepath.IsAbs(fixed) {
			return "", &NotFoundError{Name: name, Fixed: strconv.Quote(fixed) + ", not an absolute path"}
		}
		if err := runnable(fixed); err != nil {
			return "", &NotFoundError{Name: name, Fixed: strconv.Quote(fixed) + ", " + err.Error()}
		}
		return fixed, nil
	}
	nf := &NotFoundError{Name: name}
	for _, dir := range filepath.SplitList(r.opts.Path) {
		if dir == "" {
			dir = "."
		}
		file := filepath.Join(dir, name)
		if runnable(file) != nil {
			continue
		}
		if why := r.distrust(dir, file); why != "" {
			nf.Skipped = append(nf.Skipped, why)
			continue
		}
		return file, nil
	}
	return "", nf
}

// Path is Options.Path without the entries no program is taken from:
// relative ones, and those inside (or, through links, leading into) a
// place a sandboxed command may write. It is the PATH of the programs
// the agent starts outside the sandbox (MCP servers, the editor,
// espeak-ng, tmux), so that what they look up in turn (the python3 of a
// "#!/usr/bin/env python3" line, a tool an editor runs) is not a
// program a command planted in an activated .venv/bin.
func (r *Resolver) Path() string {
	var keep []string
	for _, dir := range filepath.SplitList(r.opts.Path) {
		if dir != "" && r.distrustDir(dir) == "" {
			keep = append(keep, dir)
		}
	}
	return strings.Join(keep, string(filepath.ListSeparator))
}

// Environ is environ (KEY=value pairs) with its PATH replaced by Path:
// the environment of a program the agent starts outside the sandbox.
func (r *Resolver) Environ(environ []string) []string {
	out := make([]string, 0, len(environ)+1)
	for _, kv := range environ {
		if !strings.HasPrefix(kv, "PATH=") {
			out = append(out, kv)
		}
	}
	return append(out, "PATH="+r.Path())
}

// distrustDir says why no program is taken from the PATH entry dir
// ("" when programs may be).
func (r *Resolver) distrustDir(dir string) string {
	if !filepath.IsAbs(dir) {
		return dir + ", a relative PATH entry"
	}
	dir = filepath.Clean(dir)
	if p, ok := r.inside(dir); ok {
		return dir + ", " + p.What
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		if p, ok := r.inside(real); ok {
			return dir + " (really " + real + "), " + p.What
		}
	}
	return ""
}

// distrust says why the program file, found in the PATH entry dir, is
// not taken ("" when it is).
func (r *Resolver) distrust(dir, file string) string {
	if why := r.distrustDir(dir); why != "" {
		return why
	}
	dir = filepath.Clean(dir)
	real, err := filepath.EvalSymlinks(file)
	if err != nil {
		return file + ", a link that cannot be followed"
	}
	if p, ok := r.inside(real); ok {
		return dir + " (a link to " + real + "), " + p.What
	}
	return ""
}

// inside returns the untrusted place that holds path, if one does.
func (r *Resolver) inside(path string) (Place, bool) {
	for _, p := range r.untrusted {
		if within(p.Dir, path) {
			return p, true
		}
	}
	return Place{}, false
}

// within reports whether path is dir or lies inside it; both are clean
// and absolute.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

// runnable says why the file at path cannot be run, nil when it can: a
// regular file (after links) with an execute bit, as exec.LookPath asks.
func runnable(path string) error {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return errors.New("no such file")
	case err != nil:
		return err
	case !fi.Mode().IsRegular():
		return errors.New("not a regular file")
	case fi.Mode().Perm()&0o111 == 0:
		return errors.New("not executable")
	}
	return nil
}
