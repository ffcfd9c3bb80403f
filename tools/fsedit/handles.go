package fsedit

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"syscall"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/fsedit/backup"
)

// testHookBeforeOpen, when set by a test, runs between a path's check and
// its use, so tests can swap a component for a symlink in that window.
var testHookBeforeOpen func(rel string)

// dirHandle is a verified folder handle; Close releases it unless it is
// the Root's own handle.
type dirHandle struct {
	*os.Root
	owned bool
	// made are the folders openDir created on the way, outermost first
	// (project-relative): a write records them so undo can remove them.
	made []string
}

func (d dirHandle) Close() error {
	if d.owned {
		return d.Root.Close()
	}
	return nil
}

// openDir opens the canonical folder rel one component at a time. Each
// component must be a real folder (never a symlink) at the moment it is
// opened, and the handle opened must be the folder that was checked
// (os.SameFile), so a swap between check and use is caught, not followed.
// With create, missing folders are made on the way.
func (r *Root) openDir(rel string, create bool) (dirHandle, error) {
	if testHookBeforeOpen != nil {
		testHookBeforeOpen(rel)
	}
	root, err := r.handle()
	if err != nil {
		return dirHandle{}, err
	}
	cur := dirHandle{Root: root}
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
				return dirHandle{}, fmt.Errorf("create folder %s: %w", c, err)
			}
			fi, err = cur.Lstat(c)
		}
		if err != nil {
			cur.Close()
			return dirHandle{}, err
		}
		if !fi.IsDir() || fi.Mode()&fs.ModeSymlink != 0 {
			cur.Close()
			return dirHandle{}, errRaced
		}
		next, err := cur.OpenRoot(c)
		if err != nil {
			cur.Close()
			if isPermErr(err) {
				return dirHandle{}, err
			}
			return dirHandle{}, errRaced
		}
		st, err := next.Stat(".")
		cur.Close()
		if err != nil || !os.SameFile(fi, st) {
			next.Close()
			return dirHandle{}, errRaced
		}
		cur = dirHandle{Root: next, owned: true}
	}
	cur.made = made
	return cur, nil
}

// openIn opens the regular file name inside the verified folder dir. The
// name must not be a symlink, and the file opened must be the one checked.
// O_NONBLOCK keeps a FIFO swapped in at the last moment from blocking the
// open; the mode check then refuses it.
func openIn(dir dirHandle, name string, flag int) (*os.File, fs.FileInfo, error) {
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

// openRead opens the file of t for reading through verified handles.
func (r *Root) openRead(t target) (*os.File, fs.FileInfo, error) {
	dir, err := r.openDir(t.dir(), false)
	if err != nil {
		return nil, nil, err
	}
	defer dir.Close()
	return openIn(dir, t.base(), os.O_RDONLY)
}

// asRefusal turns the errors of resolve and open into answers for the
// model where the model can act on them; other errors stay program errors.
func asRefusal(t target, err error) (*refusal, bool) {
	var rf *refusal
	var le *backup.LinkedError
	switch {
	case errors.As(err, &rf):
		return rf, true
	case errors.As(err, &le):
		return outside("%s; the write was not made", le.Error()), true
	case errors.Is(err, errRaced):
		return outside("%s changed while it was being opened (a part of it was replaced, perhaps by a symlink); check the path and try again", t.asked), true
	case errors.Is(err, fs.ErrNotExist):
		return &refusal{code: tools.CodeFileNotFound, msg: fmt.Sprintf("file not found: %s; list_directory shows what exists", t.asked)}, true
	case errors.Is(err, errIsDir):
		return &refusal{code: tools.CodeUnsupportedType, msg: fmt.Sprintf("%s is a folder, not a file; use list_directory to see its files", t.asked)}, true
	case isEscapeErr(err):
		return outside("%s leads outside the project through a symlink; use a path inside the project", t.asked), true
	case isPermErr(err):
		verb := "read"
		var pe *fs.PathError
		if errors.As(err, &pe) && (pe.Op == "mkdir" || pe.Op == "mkdirat") {
			verb = "write"
		}
		return permDenied(t.asked, verb), true
	}
	return nil, false
}

// isPermErr reports a file system refusal (EACCES, EPERM): the model can
// choose another file, unlike a full disk or an I/O error.
func isPermErr(err error) bool { return errors.Is(err, fs.ErrPermission) }

// permDenied is the answer to a file the agent's user may not read or
// write (verb is "read" or "write").
func permDenied(asked, verb string) *refusal {
	return &refusal{code: tools.CodePolicyDenied, msg: fmt.Sprintf("%s: permission denied by the file system (the agent's user cannot %s it); choose another file or ask the user to change its permissions", asked, verb)}
}

func isNotDirErr(err error) bool { return errors.Is(err, syscall.ENOTDIR) }
