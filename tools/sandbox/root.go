package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/sandbox/backup"
)

// protectedDirs are folders the model's tools never see or touch, at any
// depth: the repository's internals and the agent's own data (backups,
// sessions, notes). Compared case-insensitively, because on case-folding
// file systems .GIT is .git.
var protectedDirs = []string{".git", agentDir}

// agentDir is the agent's own folder in the project.
const agentDir = ".agent"

// maxSymlinkHops bounds symlink resolution, so a loop is an error rather
// than a hang (Linux's own limit is 40).
const maxSymlinkHops = 40

// errRaced reports that a path changed between its check and its use: a
// component was swapped for a symlink or another file.
var errRaced = errors.New("path changed while it was being opened")

// Root is the project folder: the only place the file tools may touch.
//
// Every path goes through two steps. resolve canonicalises it: relative to
// the root, "." and ".." folded, symlinks followed one at a time (each
// must stay inside the root), refusing protected folders (.git, .agent)
// and special files. Then the file is opened through folder handles, one
// path component at a time, using the standard library's os.Root (openat
// with O_NOFOLLOW on each component): each folder handle is compared with
// what the check saw (os.SameFile), and so is the file opened in it. A
// path swapped for a symlink between check and use is therefore never
// followed; the call fails with PATH_OUTSIDE_ROOT instead. Writes happen
// relative to the verified folder handle (temp file, rename, fsync).
type Root struct {
	dir      string // absolute, cleaned
	realDir  string // dir with symlinks resolved, for absolute paths given by the model
	opts     Options
	openOnce sync.Once
	root     *os.Root
	openErr  error

	storeOnce sync.Once
	store     *backup.Store

	secrets secretFiles // for linkedSecret
}

// NewRoot returns the sandbox for the project folder dir. The folder is
// opened on first use, so constructing a Root never fails; a folder that
// cannot be opened is reported by the first call that needs it.
func NewRoot(dir string, opts Options) *Root {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = filepath.Clean(dir)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		real = abs
	}
	opts = opts.withDefaults()
	return &Root{dir: abs, realDir: real, opts: opts}
}

// Dir returns the absolute path of the project folder.
func (r *Root) Dir() string { return r.dir }

// Options returns the options in force, defaults filled in.
func (r *Root) Options() Options { return r.opts }

// Handle returns the open root folder.
func (r *Root) Handle() (*os.Root, error) {
	r.openOnce.Do(func() {
		r.root, r.openErr = os.OpenRoot(r.dir)
		if r.openErr != nil {
			r.openErr = fmt.Errorf("open project folder: %w", r.openErr)
		}
	})
	return r.root, r.openErr
}

// Close releases the root folder handle.
func (r *Root) Close() error {
	if r.root != nil {
		return r.root.Close()
	}
	return nil
}

// Target is a path that passed the sandbox checks.
type Target struct {
	Rel   string      // canonical: slash-separated, symlink-free, "." for the root
	Info  fs.FileInfo // Lstat of rel; nil when it does not exist
	Asked string      // as the model wrote it, for messages
}

func (t Target) Dir() string  { return path.Dir(t.Rel) }
func (t Target) Base() string { return path.Base(t.Rel) }

// Refusal is a sandbox verdict the model can act on: a protocol code and
// its one-line message.
type Refusal struct{ Code, msg string }

func (e *Refusal) Error() string { return e.msg }

func outside(format string, args ...any) *Refusal {
	return &Refusal{Code: tools.CodePathOutsideRoot, msg: fmt.Sprintf(format, args...)}
}

// Resolve checks p and returns its canonical form. A *refusal is an answer
// for the model; any other error is a failure of the program.
func (r *Root) Resolve(p string) (Target, error) { return r.resolveIn(p, "") }

// The folders of .agent a reader may enter, each for one reader: the
// project's custom commands (ReadCommand), skills (ReadSkill) and
// sub-agents (ReadAgentFile), never the model's file tools.
const (
	commandsDir = "commands"
	skillsDir   = "skills"
	agentsDir   = "agents"
)

// resolveIn is resolve; with enter (commandsDir, skillsDir, agentsDir), the path
// may also lead into that one folder of .agent (and nowhere else in
// .agent), judged after every symlink like any other path.
func (r *Root) resolveIn(p string, enter string) (Target, error) {
	asked := p
	p = strings.TrimSpace(p)
	if rf := checkPathText(p, "the path"); rf != nil {
		return Target{}, rf
	}
	if p == "" || p == "." || p == "./" {
		t := Target{Rel: ".", Asked: "."}
		err := r.statInto(&t)
		return t, err
	}
	if filepath.IsAbs(p) {
		rel, ok := r.relFromAbs(p)
		if !ok {
			return Target{}, outside("%s is outside the project; use a path relative to the project root", asked)
		}
		p = rel
	}
	parts, err := lexical(p, asked)
	if err != nil {
		return Target{}, err
	}
	root, err := r.Handle()
	if err != nil {
		return Target{}, err
	}
	var (
		done    []string // resolved components
		missing bool     // a component does not exist: the rest is lexical
		hops    int
	)
	for len(parts) > 0 {
		c := parts[0]
		parts = parts[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			if len(done) == 0 {
				return Target{}, outside("%s leads outside the project through a symlink; use a path inside the project", asked)
			}
			done = done[:len(done)-1]
			continue
		}
		if len(done) == 1 && done[0] == agentDir && (enter == "" || c != enter) {
			return Target{}, outside("%s is inside %s, which the file tools never touch; choose a path outside .git and .agent", asked, done[0])
		}
		if IsProtected(c) && !(enter != "" && len(done) == 0 && c == agentDir && len(parts) > 0 && parts[0] == enter) {
			return Target{}, outside("%s is inside %s, which the file tools never touch; choose a path outside .git and .agent", asked, c)
		}
		next := path.Join(append(append([]string(nil), done...), c)...)
		if missing {
			done = append(done, c)
			continue
		}
		fi, err := root.Lstat(next)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			missing = true
			done = append(done, c)
			continue
		case isNotDirErr(err):
			return Target{}, &Refusal{Code: tools.CodeFileNotFound, msg: fmt.Sprintf("%s: %s is a file, not a folder", asked, path.Join(done...))}
		case err != nil:
			if isEscapeErr(err) {
				return Target{}, outside("%s leads outside the project through a symlink; use a path inside the project", asked)
			}
			return Target{}, fmt.Errorf("check %s: %w", next, err)
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			hops++
			if hops > maxSymlinkHops {
				return Target{}, &Refusal{Code: tools.CodeUnsupportedType, msg: fmt.Sprintf("%s is a symlink loop (or a chain of more than %d links); use the real path of the file", asked, maxSymlinkHops)}
			}
			dest, err := root.Readlink(next)
			if err != nil {
				return Target{}, fmt.Errorf("read symlink %s: %w", next, err)
			}
			if filepath.IsAbs(dest) {
				rel, ok := r.relFromAbs(dest)
				if !ok {
					// The target is not named: where a link out of the
					// project points is none of the model's business.
					return Target{}, outside("%s is a symlink to a place outside the project; use a path inside the project", asked)
				}
				done = done[:0]
				dest = rel
			}
			parts = append(strings.Split(filepath.ToSlash(dest), "/"), parts...)
			continue
		}
		if len(parts) > 0 && !fi.IsDir() {
			// A later ".." would still be an error in the OS; say so plainly.
			return Target{}, &Refusal{Code: tools.CodeFileNotFound, msg: fmt.Sprintf("%s: %s is a file, not a folder", asked, next)}
		}
		done = append(done, c)
	}
	t := Target{Rel: ".", Asked: asked}
	if len(done) > 0 {
		t.Rel = path.Join(done...)
	}
	if missing {
		return t, nil
	}
	return t, r.statInto(&t)
}

// statInto fills t.info and refuses special files.
func (r *Root) statInto(t *Target) error {
	root, err := r.Handle()
	if err != nil {
		return err
	}
	fi, err := root.Lstat(t.Rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("check %s: %w", t.Rel, err)
	}
	if kind := specialKind(fi.Mode()); kind != "" {
		return &Refusal{Code: tools.CodeUnsupportedType, msg: fmt.Sprintf("%s is a %s, not a regular file; the file tools only handle files and folders", t.Asked, kind)}
	}
	t.Info = fi
	return nil
}

// relFromAbs turns an absolute path into one relative to the root, if it
// is inside it (either as given or with the root's own symlinks resolved).
func (r *Root) relFromAbs(p string) (string, bool) {
	p = filepath.Clean(p)
	for _, base := range []string{r.dir, r.realDir} {
		rel, err := filepath.Rel(base, p)
		if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return filepath.ToSlash(rel), true
		}
	}
	return "", false
}

// lexical splits a relative path into components, folding "." and "..",
// and refuses a ".." that climbs above the root.
func lexical(p, asked string) ([]string, error) {
	var out []string
	for _, c := range strings.Split(filepath.ToSlash(p), "/") {
		switch c {
		case "", ".":
		case "..":
			if len(out) == 0 {
				return nil, outside("%s climbs out of the project with ..; use a path inside the project", asked)
			}
			out = out[:len(out)-1]
		default:
			if strings.ContainsRune(c, 0) {
				return nil, outside("%s contains a NUL byte; use a plain relative path", asked)
			}
			out = append(out, c)
		}
	}
	return out, nil
}

func IsProtected(component string) bool {
	for _, d := range protectedDirs {
		if strings.EqualFold(component, d) {
			return true
		}
	}
	return false
}

// specialKind names a file mode the tools refuse, or returns "".
func specialKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "FIFO"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0, m&fs.ModeCharDevice != 0:
		return "device file"
	case m&fs.ModeIrregular != 0:
		return "special file"
	}
	return ""
}

func isEscapeErr(err error) bool {
	return err != nil && strings.Contains(err.Error(), "path escapes from parent")
}
