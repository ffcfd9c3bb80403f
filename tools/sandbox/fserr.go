package sandbox

import (
	"context"
	"errors"
	"fmt"
	"syscall"

	"github.com/agentcli/agent/tools"
)

// Guarded wraps a tool function so that a file system error it returns
// about the path (a name too long, a link loop, a part that is a file, no
// permission) becomes a Result with a code, never the run's end. What is
// left as a Go error is the machine's trouble, not the call's: a full
// disk, a read-only file system, an I/O error, and cancellation.
func Guarded[A any](fn func(context.Context, A) (tools.Result, error), pathOf func(A) string) func(context.Context, A) (tools.Result, error) {
	return func(ctx context.Context, a A) (tools.Result, error) {
		res, err := fn(ctx, a)
		if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return res, err
		}
		if rf, ok := fsRefusal(pathOf(a), err); ok {
			return rf.Result(), nil
		}
		return res, err
	}
}

// fsRefusal maps a file system error about the path asked to an answer
// for the model.
func fsRefusal(asked string, err error) (*Refusal, bool) {
	if rf, ok := AsRefusal(Target{Asked: asked}, err); ok {
		return rf, true
	}
	code, why := "", ""
	switch {
	case errors.Is(err, syscall.ELOOP):
		code, why = tools.CodeUnsupportedType, "leads into a symlink loop; use the real path of the file"
	case errors.Is(err, syscall.ENAMETOOLONG):
		code, why = tools.CodeSchemaInvalid, "is too long for the file system; choose a shorter name"
	case errors.Is(err, syscall.ENOTDIR):
		code, why = tools.CodeFileNotFound, "goes through a file as if it were a folder; list_directory shows what exists"
	case errors.Is(err, syscall.EISDIR):
		code, why = tools.CodeUnsupportedType, "is a folder, not a file; use list_directory to see its files"
	case errors.Is(err, syscall.ENXIO), errors.Is(err, syscall.ENODEV), errors.Is(err, syscall.EOPNOTSUPP):
		code, why = tools.CodeUnsupportedType, "is not a regular file; the file tools only handle files and folders"
	case errors.Is(err, syscall.EINVAL), errors.Is(err, syscall.EILSEQ):
		code, why = tools.CodeSchemaInvalid, "is not a valid file name on this file system; choose a plain name"
	case errors.Is(err, syscall.EEXIST):
		code, why = tools.CodeFileExists, "already exists; read it first"
	case errors.Is(err, syscall.EBUSY), errors.Is(err, syscall.ETXTBSY):
		code, why = tools.CodePolicyDenied, "is in use by the system and cannot be changed now; choose another file"
	default:
		return nil, false
	}
	return &Refusal{Code: code, msg: fmt.Sprintf("%s %s", asked, why)}, true
}
