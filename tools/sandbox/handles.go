package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"syscall"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/sandbox/backup"
)

// TestHookBeforeOpen, when set by a test, runs between a path's check and
// its use, so tests can swap a component for a symlink in that window.
var TestHookBeforeOpen func(rel string)

// DirHandle is a verified folder handle; Close releases it unless it is
// the Root's own handle.
type DirHandle struct {
	*os.Root
	owned bool
	// Made are the folders openDir created on the way, outermost first
	// (project-relative): a write records them so undo can remove them.
	Made []string
}

func (d DirHandle) Close() error {
	if d.owned {
		return d.Root.Close()
	}
	return nil
}

// OpenDir opens the canonical folder rel one component at a time. Each
// component must be a real folder (never a symlink) at the moment it is
// opened, and the handle opened must be the folder that was checked
// (os.SameFile), so a swap between check and use is caught, not followed.
// With create, missing folders are made on the way.
func (r *Root) OpenDir(rel string, create bool) (DirHandle, error) {
	if TestHookBeforeOpen != nil {
		TestHookBeforeOpen(rel)
	}
	root, err := r.Handle()
	if err != nil {
		return DirHandle{}, err
	}
	cur := DirHandle{Root: root}
	if rel == "." || rel == "" {
		return cur, nil
	}
	var made []string
	for i, c := range strings.Split(rel, "/") {
		fi, err := cur.Lstat(c)
		if create && errors.Is(err, fs.ErrNotExist) {
			err = cur.Mkdir(c, 0o755)
			if err == nil {
				made = append(made, strings.Join(strings.Split(rel, "/")[:i+1], "/"))
			} else if !errors.Is(err, fs.ErrExist) {
				cur.Close()
				return DirHandle{}, fmt.Errorf("create folder %s: %w", c, err)
			}
			fi, err = cur.Lstat(c)
		}
		if err != nil {
			cur.Close()
			return DirHandle{}, err
		}
		if !fi.IsDir() || fi.Mode()&fs.ModeSymlink != 0 {
			cur.Close()
			return DirHandle{}, errRaced
		}
		next, err := cur.OpenRoot(c)
		if err != nil {
			cur.Close()
			if IsPermErr(err) {
				return DirHandle{}, err
			}
			return DirHandle{}, errRaced
		}
		st, err := next.Stat(".")
		cur.Close()
		if err != nil || !os.SameFile(fi, st) {
			next.Close()
			return DirHandle{}, errRaced
		}
		cur = DirHandle{Root: next, owned: true}
	}
	cur.Made = made
	return cur, nil
}

// OpenIn opens the regular file name inside the verified folder dir. The
// name must not be a symlink, and the file opened must be the one checked.
// O_NONBLOCK keeps a FIFO swapped in at the last moment from blocking the
// open; the mode check then refuses it.
func OpenIn(dir DirHandle, name string, flag int) (*os.File, fs.FileInfo, error) {
	want, err := dir.Lstat(name)
	if err != nil {
		return nil, nil, err
	}
	if want.Mode()&fs.ModeSymlink != 0 {
		return nil, nil, errRaced
	}
	f, err := dir.OpenFile(name, flag|syscall.O_NONBLOCK, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, err
		}
		return nil, nil, fmt.Errorf("open %s: %w", name, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("stat %s: %w", name, err)
	}
	if !os.SameFile(want, fi) {
		f.Close()
		return nil, nil, errRaced
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		if fi.IsDir() {
			return nil, nil, errIsDir
		}
		return nil, nil, errRaced
	}
	return f, fi, nil
}

// errIsDir reports a folder where a file was expected.
var errIsDir = errors.New("is a folder")

// OpenRead opens the file of t for reading through verified handles.
func (r *Root) OpenRead(t Target) (*os.File, fs.FileInfo, error) {
	dir, err := r.OpenDir(t.Dir(), false)
	if err != nil {
		return nil, nil, err
	}
	defer dir.Close()
	return OpenIn(dir, t.Base(), os.O_RDONLY)
}

// AsRefusal turns the errors of resolve and open into answers for the
// model where the model can act on them; other errors stay program errors.
func AsRefusal(t Target, err error) (*Refusal, bool) {
	var rf *Refusal
	var le *backup.LinkedError
	switch {
	case errors.As(err, &rf):
		return rf, true
	case errors.As(err, &le):
		return outside("%s; the write was not made", le.Error()), true
	case errors.Is(err, errRaced):
		return outside("%s changed while it was being opened (a part of it was replaced, perhaps by a symlink); check the path and try again", t.Asked), true
	case errors.Is(err, fs.ErrNotExist):
		return &Refusal{Code: tools.CodeFileNotFound, msg: fmt.Sprintf("file not found: %s; list_directory shows what exists", t.Asked)}, true
	case errors.Is(err, errIsDir):
		return &Refusal{Code: tools.CodeUnsupportedType, msg: fmt.Sprintf("%s is a folder, not a file; use list_directory to see its files", t.Asked)}, true
	case isEscapeErr(err):
		return outside("%s leads outside the project through a symlink; use a path inside the project", t.Asked), true
	case IsPermErr(err):
		verb := "read"
		var pe *fs.PathError
		if errors.As(err, &pe) && (pe.Op == "mkdir" || pe.Op == "mkdirat") {
			verb = "write"
		}
		return PermDenied(t.Asked, verb), true
	}
	return nil, false
}

// IsPermErr reports a file system refusal (EACCES, EPERM): the model can
// choose another file, unlike a full disk or an I/O error.
func IsPermErr(err error) bool { return errors.Is(err, fs.ErrPermission) }

// PermDenied is the answer to a file the agent's user may not read or
// write (verb is "read" or "write").
func PermDenied(asked, verb string) *Refusal {
	return &Refusal{Code: tools.CodePolicyDenied, msg: fmt.Sprintf("%s: permission denied by the file system (the agent's user cannot %s it); choose another file or ask the user to change its permissions", asked, verb)}
}

func isNotDirErr(err error) bool { return errors.Is(err, syscall.ENOTDIR) }
