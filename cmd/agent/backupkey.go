package main

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/internal/atomicfile"
)

// backupKeyFile is the user's key that signs the backup manifest of every
// project (fsedit.Options.BackupKey), in their configuration folder: a
// project's .agent/backups is anyone's, this file only the user's.
const backupKeyFile = "backup.key"

// loadBackupKey returns the key in the user's configuration folder dir,
// making it on first use: 32 random bytes, written as hex to a file of
// mode 0600 (the folder 0700), put in place whole or not at all.
func loadBackupKey(dir string) ([]byte, error) {
	if dir == "" {
		return nil, errors.New("no configuration folder for the backup signing key (set HOME or XDG_CONFIG_HOME)")
	}
	p := filepath.Join(dir, backupKeyFile)
	key, err := readBackupKey(p)
	if !errors.Is(err, fs.ErrNotExist) {
		return key, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("make the backup signing key: %w", err)
	}
	key = make([]byte, 32)
	rand.Read(key)
	// Never replaced: of two agents starting at once, one key wins and
	// both use it.
	err = atomicfile.WriteNew(p, 0o600, func(w io.Writer) error {
		_, err := io.WriteString(w, hex.EncodeToString(key)+"\n")
		return err
	})
	if errors.Is(err, fs.ErrExist) {
		return readBackupKey(p)
	}
	if err != nil {
		return nil, fmt.Errorf("make the backup signing key: %w", err)
	}
	return key, nil
}

// readBackupKey reads the key file p.
func readBackupKey(p string) ([]byte, error) {
	b, err := atomicfile.ReadSmall(p, 1<<10)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("read the backup signing key: %w", err)
	}
	key, err := hex.DecodeString(strings.TrimSpace(string(b)))
	if err != nil || len(key) < 16 {
		return nil, fmt.Errorf("%s is not a backup signing key (64 hex digits); move it away and the agent makes a new one (backups signed with the old one are then restored only with --force)", p)
	}
	return key, nil
}

// backupKey is the key that signs this user's backups, loaded once. A
// key that cannot be kept is said once on stderr: the backups are then
// signed with a key of this process only, so undo works while it runs
// and later needs --force.
func (f *factory) backupKey() []byte {
	f.keyOnce.Do(func() {
		var err error
		f.key, err = loadBackupKey(config.UserDir(f.environ()))
		if err != nil && f.io != nil {
			f.warn(err.Error() + "; this run's backups can be undone while it runs, later only with --force")
		}
	})
	return f.key
}
