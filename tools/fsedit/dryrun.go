package fsedit

import (
	"errors"
	"io"
	"os"

	"github.com/agentcli/agent/tools/sandbox"
)

// dryRun collects what a write would do, for Preview: the old and new
// content, each kept up to diffKeep (beyond that the preview says so
// instead of showing a diff).
type dryRun struct {
	old, new          []byte
	oldTooBig, tooBig bool
	enc               string // the file's UTF-16 encoding, or ""
}

// errDryRun ends a dry write where the real one would start to change
// things (backup, rename), after every check passed.
var errDryRun = errors.New("dry run")

// Write takes the new content as the write produces it.
func (d *dryRun) Write(p []byte) (int, error) {
	d.capture(p)
	return len(p), nil
}

func (d *dryRun) capture(p []byte) {
	if d.tooBig || len(d.new)+len(p) > diffKeep {
		d.tooBig, d.new = true, nil
		return
	}
	d.new = append(d.new, p...)
}

// keepOld reads the old content from f for the diff, and ends the dry run.
func (d *dryRun) keepOld(f io.ReaderAt, size int64) error {
	if size > diffKeep {
		d.oldTooBig = true
		return errDryRun
	}
	b := make([]byte, size)
	if _, err := f.ReadAt(b, 0); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	d.old = b
	return errDryRun
}

// newReplacement starts the new content of e: a temp file beside the
// target, or for a dry run the dryRun itself.
func (s *Session) newReplacement(e *edit, perm os.FileMode) (*sandbox.Replacement, error) {
	if e.dry == nil && s.editor.Write != nil {
		// The editor is handed the text: it keeps the file's encoding.
		return sandbox.NewDryReplacement(e.dir, e.t.Base(), &e.out), nil
	}
	if e.dry == nil {
		r, err := sandbox.NewReplacement(e.dir, e.t.Base(), perm)
		if err == nil {
			r.EncodeAs(e.enc)
		}
		return r, err
	}
	r := sandbox.NewDryReplacement(e.dir, e.t.Base(), e.dry)
	r.EncodeAs(e.enc)
	return r, nil
}
