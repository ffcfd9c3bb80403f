package sandbox

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"sync"
	"time"

	"github.com/agentcli/agent/tools/sandbox/backup"
)

// Backups returns the project's backup store. Old backups are pruned
// (Options.BackupMaxAge, BackupMaxBytes) the first time it is used.
func (r *Root) Backups() (*backup.Store, error) {
	root, err := r.Handle()
	if err != nil {
		return nil, err
	}
	r.storeOnce.Do(func() {
		keep := backup.Retention{MaxAge: r.opts.BackupMaxAge, MaxBytes: r.opts.BackupMaxBytes}
		var key []byte
		if r.opts.BackupKey != nil {
			key = r.opts.BackupKey()
		}
		if len(key) == 0 {
			key = processKey()
		}
		// Bound to this folder: a signed record copied from another
		// project does not verify here.
		r.store = backup.New(root, keep, r.opts.Now, backup.ProjectKey(key, r.realDir))
		// Pruning is housekeeping: a failure here must not stop a write,
		// and the next run tries again.
		r.store.Prune()
	})
	return r.store, nil
}

// processKey is the backup key of a process given none: random, made
// once, gone with the process.
var processKey = sync.OnceValue(func() []byte {
	k := make([]byte, 32)
	rand.Read(k)
	return k
})

// CheckStateDir verifies that .agent and its subfolder sub (such as
// "sessions"; "" for .agent alone) are real folders inside the project
// where they exist, never symlinks: the agent's state stays in the
// project. It returns a *backup.LinkedError, whose message says what to
// do, when one is linked out; callers writing state there (sessions,
// audit logs) call it first. Backups check it on every write.
func (r *Root) CheckStateDir(sub string) error {
	root, err := r.Handle()
	if err != nil {
		return err
	}
	return backup.CheckReal(root, path.Join(".agent", sub))
}

// Record appends e to the manifest.
func (r *Root) Record(e backup.Entry) error {
	st, err := r.Backups()
	if err != nil {
		return err
	}
	if err := st.Append(e); err != nil {
		return fmt.Errorf("record backup of %s: %w", e.Path, err)
	}
	return nil
}

// BackupOld keeps the old content of rel, open as f with state fi and
// hash sum, in the backup store, and returns the blob's project path.
//
// It hard-links the old inode into the store: no copy, however large the
// file, and after the rename the inode is reachable only from the store,
// so it cannot change; sealBlob then makes it 0600. The link is checked
// to be the very inode that was read (a path swapped meanwhile would link
// something else); if linking fails or the check does, the content is
// copied from f instead (into a file of mode 0600) and its hash checked.
// A file with other names, or with setuid, setgid or sticky bits, is
// always copied: its inode lives on elsewhere, so the store could not
// make it 0600 without changing that other name, and a backup never
// keeps those bits (the manifest records the permission bits).
func (r *Root) BackupOld(changeSet, rel string, f *os.File, fi fs.FileInfo, sum string) (string, error) {
	st, err := r.Backups()
	if err != nil {
		return "", err
	}
	root, _ := r.Handle()
	blob, err := st.NewBlobPath(changeSet, rel)
	if err != nil {
		return "", err
	}
	linkable := links(fi) == 1 && fi.Mode()&(fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky) == 0
	if linkable && root.Link(rel, blob) == nil {
		if li, err := root.Lstat(blob); err == nil && os.SameFile(li, fi) {
			return blob, syncParent(root, blob)
		}
		root.Remove(blob)
	}
	out, err := root.OpenFile(blob, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", fmt.Errorf("create backup of %s: %w", rel, err)
	}
	h := sha256.New()
	_, err = io.Copy(io.MultiWriter(out, h), io.NewSectionReader(f, 0, fi.Size()))
	if err == nil {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		root.Remove(blob)
		return "", DescribeWriteErr(blob, fmt.Errorf("back up %s: %w", rel, err))
	}
	if hex.EncodeToString(h.Sum(nil)) != sum {
		root.Remove(blob)
		return "", ErrStale
	}
	return blob, syncParent(root, blob)
}

// BackupText keeps text, the old content of the project file rel as
// an editor held it (see fsedit's Editor), as a backup blob of change set
// changeSet, and returns the blob's path. The blob is written whole,
// synced and made 0600 before the new content goes anywhere.
func (r *Root) BackupText(changeSet, rel string, text []byte) (string, error) {
	st, err := r.Backups()
	if err != nil {
		return "", err
	}
	root, _ := r.Handle()
	blob, err := st.NewBlobPath(changeSet, rel)
	if err != nil {
		return "", err
	}
	out, err := root.OpenFile(blob, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", fmt.Errorf("create backup of %s: %w", rel, err)
	}
	_, err = out.Write(text)
	if err == nil {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		root.Remove(blob)
		return "", DescribeWriteErr(blob, fmt.Errorf("back up %s: %w", rel, err))
	}
	return blob, syncParent(root, blob)
}

// SealBlob makes the backup blob 0600, as every backup is, once the new
// content has been renamed over the file: a linked blob kept the file's
// mode (0666 under umask 0, a script's 0755) and is now the old inode's
// only name, so its mode changes nothing else. Best effort: a blob left
// with its old mode is still a backup.
func (r *Root) SealBlob(blob string) {
	if blob == "" {
		return
	}
	if root, err := r.Handle(); err == nil {
		root.Chmod(blob, 0o600)
	}
}

// DropBlob removes a backup that will not be recorded.
func (r *Root) DropBlob(blob string) {
	if blob == "" {
		return
	}
	if root, err := r.Handle(); err == nil {
		root.Remove(blob)
	}
}

// syncParent makes a new name in p's folder durable.
func syncParent(root *os.Root, p string) error {
	d, err := root.Open(path.Dir(p))
	if err != nil {
		return fmt.Errorf("sync backup folder: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync backup folder: %w", err)
	}
	return nil
}

// NewChangeSetID returns a fresh change-set id that sorts by time, such as
// 20260102-150405-1a2b.
func NewChangeSetID(now time.Time) string {
	var rnd [2]byte
	rand.Read(rnd[:])
	return now.UTC().Format("20060102-150405") + "-" + hex.EncodeToString(rnd[:])
}
