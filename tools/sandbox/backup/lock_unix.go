//go:build unix

package backup

import (
	"fmt"
	"os"
	"path"
	"syscall"
)

// lock takes an exclusive lock on the backup folder, so that two agents in
// the same project never interleave manifest updates with a prune.
func (s *Store) lock() (func(), error) {
	if err := CheckReal(s.root, Dir); err != nil {
		return nil, err
	}
	if err := s.root.MkdirAll(Dir, 0o700); err != nil {
		return nil, fmt.Errorf("create backup folder: %w", err)
	}
	f, err := s.root.OpenFile(path.Join(Dir, ".lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock backups: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock backups: %w", err)
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
