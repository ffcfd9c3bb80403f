package sandbox

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/agentcli/agent/tools"
)

// The agent itself reads a few project files that end up in what the
// model is sent: the instruction files (AGENTS.md and the like) and the
// custom commands of .agent/commands. A cloned repository writes those,
// so they are read under read_file's rules, not around them: a symlink
// is judged by where it lands (inside the project, not in .git, not a
// secret file such as .env), only a regular file is opened (never a
// FIFO or a device, so /dev/zero or a pipe cannot hang or flood the
// agent), and no more than the caller's bound is read.

// ReadText reads the project file rel for the agent itself (an
// instruction file), under read_file's rules. It returns at most max
// bytes of it and the file's whole size. A missing file is an error
// wrapping fs.ErrNotExist; a file the rules refuse is an error whose
// message says why in a few words ("it is a symlink to a place outside
// the project"), for the caller to put after the file's name, and whose
// protocol code RefusalCode gives.
func (r *Root) ReadText(rel string, max int64) ([]byte, int64, error) {
	return r.readText(rel, max, "")
}

// ReadCommand reads the project's custom command file name (review.md)
// in .agent/commands, one of the two places in .agent a reader may
// enter, under the rules of ReadText. name is one file name, never a
// path.
func (r *Root) ReadCommand(name string, max int64) ([]byte, int64, error) {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`) {
		return nil, 0, fmt.Errorf("%q is not a command file name", name)
	}
	return r.readText(path.Join(agentDir, commandsDir, name), max, commandsDir)
}

func (r *Root) readText(rel string, max int64, enter string) ([]byte, int64, error) {
	t, err := r.resolveText(rel, enter)
	if err != nil {
		return nil, 0, err
	}
	return r.readResolved(t, rel, max)
}

// resolveText resolves rel for a reader, the refusals as reasons.
func (r *Root) resolveText(rel, enter string) (Target, error) {
	if rf := checkPathText(rel, "the path"); rf != nil {
		return Target{}, rf.reason(rel)
	}
	t, err := r.resolveIn(rel, enter)
	if err != nil {
		if rf, ok := AsRefusal(Target{Asked: rel}, err); ok {
			return Target{}, rf.reason(rel)
		}
		return Target{}, err
	}
	return t, nil
}

// readResolved reads the file t (asked for as rel) under ReadText's
// rules.
func (r *Root) readResolved(t Target, rel string, max int64) ([]byte, int64, error) {
	switch {
	case t.Info == nil:
		return nil, 0, errNoFile
	case t.Info.IsDir():
		return nil, 0, refuse(tools.CodeUnsupportedType, "it is a folder, not a file")
	case t.Rel != rel && IsSecretName(t.Rel) && !r.secretAllowed(t.Rel):
		return nil, 0, refuse(tools.CodePolicyDenied, "it leads to %s, which usually holds secrets", t.Rel)
	}
	for _, name := range []string{rel, t.Rel} {
		if rf := r.TypeRefusal(name, rel); rf != nil {
			return nil, 0, rf.reason(rel)
		}
	}
	f, fi, err := r.OpenRead(t)
	if err != nil {
		if rf, ok := AsRefusal(t, err); ok {
			return nil, 0, rf.reason(rel)
		}
		return nil, 0, err
	}
	defer f.Close()
	if err := LinkedRefusal(fi); err != nil {
		return nil, 0, err
	}
	return readBounded(f, fi.Size(), max)
}

// LinkedRefusal refuses a regular file with more than one name (a hard
// link) for the agent's own readers. A hard link is judged by nothing:
// .agent/commands/review.md linked to .env is the very inode of .env,
// and no name or landing place says so. A checkout never makes one, so
// one in a project was made by a command (or a person) in it; its other
// name may be a secret file. What the agent sends on its own or on the
// person's word (instructions, commands, skills, @attachments, see
// ForPerson) is refused; the model's own read_file is judged by its
// rules.
func LinkedRefusal(fi fs.FileInfo) error {
	if n := links(fi); fi.Mode().IsRegular() && n > 1 {
		return refuse(tools.CodePolicyDenied, "it is a hard link (one of %d names of the same file), and another name may be a secret file such as .env", n)
	}
	return nil
}

// ReadUserText reads the file p of the user's own configuration folder
// (their custom commands): outside any project, so symlinks may lead
// anywhere the user keeps files, but never to a FIFO, a device or a file
// of the kernel's (/proc, /sys: /proc/self/environ would send the whole
// environment), nor to a file that usually holds secrets. It returns
// what ReadText does.
func ReadUserText(p string, max int64) ([]byte, int64, error) {
	// The kernel names a loop (ELOOP); EvalSymlinks only says "too many
	// links".
	if _, err := os.Stat(p); errors.Is(err, syscall.ELOOP) {
		return nil, 0, refuse(tools.CodeUnsupportedType, "it is a symlink loop")
	}
	real, err := filepath.EvalSymlinks(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, 0, errNoFile
	case err != nil:
		return nil, 0, err
	}
	if kernelPath(real) {
		return nil, 0, refuse(tools.CodePathOutsideRoot, "it leads to %s, which is not a file of yours", real)
	}
	for _, name := range []string{p, real} {
		if IsSecretName(filepath.ToSlash(name)) {
			return nil, 0, refuse(tools.CodePolicyDenied, "it leads to %s, which usually holds secrets", real)
		}
	}
	want, err := os.Lstat(real)
	if err != nil {
		return nil, 0, err
	}
	if kind := specialKind(want.Mode()); kind != "" {
		return nil, 0, refuse(tools.CodeUnsupportedType, "it is a %s, not a regular file", kind)
	}
	if want.IsDir() {
		return nil, 0, refuse(tools.CodeUnsupportedType, "it is a folder, not a file")
	}
	// No blocking and no following: what is opened must be what was
	// checked, a regular file on a real file system.
	f, err := os.OpenFile(real, os.O_RDONLY|syscall.O_NONBLOCK|oNoFollow, 0)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	if !fi.Mode().IsRegular() || !os.SameFile(want, fi) || kernelFile(f) {
		return nil, 0, refuse(tools.CodeUnsupportedType, "it changed while it was being opened, or is not a regular file")
	}
	return readBounded(f, fi.Size(), max)
}

// kernelPath reports a path in the kernel's file systems, whose
// "files" are the state of processes and devices.
func kernelPath(p string) bool {
	for _, dir := range []string{"/proc", "/sys", "/dev"} {
		if p == dir || strings.HasPrefix(p, dir+"/") {
			return true
		}
	}
	return false
}

// readBounded reads at most max bytes of f, whose size is size, and
// refuses binary content (a NUL byte).
func readBounded(f io.Reader, size, max int64) ([]byte, int64, error) {
	data, err := io.ReadAll(io.LimitReader(f, max))
	if err != nil {
		return nil, 0, err
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return nil, 0, refuse(tools.CodeUnsupportedType, "it holds NUL bytes, so it is binary, not text")
	}
	return data, size, nil
}

// errNoFile is a reader's missing file: "it does not exist", which is
// fs.ErrNotExist to errors.Is.
var errNoFile error = noFile{}

type noFile struct{}

func (noFile) Error() string        { return "it does not exist" }
func (noFile) Is(target error) bool { return target == fs.ErrNotExist }

// readRefusal is a reader's refusal: why, in a few words, and the
// protocol code the file tools give for the same verdict.
type readRefusal struct{ code, msg string }

func (e *readRefusal) Error() string { return e.msg }

func refuse(code, format string, args ...any) error {
	return &readRefusal{code: code, msg: fmt.Sprintf(format, args...)}
}

// RefusalCode returns the protocol code (PATH_OUTSIDE_ROOT,
// UNSUPPORTED_FILE_TYPE, TOOL_POLICY_DENIED...) of a reader's refusal
// or of a file system error about the file (FILE_NOT_FOUND for a
// missing one, TOOL_POLICY_DENIED for no permission), and "" for any
// other error: a failure of the machine, not a verdict on the file.
func RefusalCode(err error) string {
	var rf *readRefusal
	switch {
	case err == nil:
		return ""
	case errors.As(err, &rf):
		return rf.code
	case errors.Is(err, fs.ErrNotExist):
		return tools.CodeFileNotFound
	}
	if rf, ok := fsRefusal("", err); ok { // no permission, a link loop...
		return rf.Code
	}
	return ""
}

// reason is the refusal for a reader rather than for the model: its
// message without the advice, with the file (as asked) as "it".
func (rf *Refusal) reason(asked string) error {
	msg, _, _ := strings.Cut(rf.msg, "; ")
	if rest, ok := strings.CutPrefix(msg, asked+" "); ok {
		msg = "it " + rest
	}
	return &readRefusal{code: rf.Code, msg: msg}
}
