package backup

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentcli/agent/internal/atomicfile"
)

// KeyFile is the user's key that signs the backup manifest of every
// project, in their configuration folder: a project's .agent/backups is
// anyone's, this file only the user's.
const KeyFile = "backup.key"

// LoadKey returns the signing key in the user's configuration folder
// dir, making it on first use: 32 random bytes, written as hex to a file
// of mode 0600 (the folder 0700), put in place whole or not at all and
// never replaced, so that of two agents starting at once one key wins
// and both use it.
func LoadKey(dir string) ([]byte, error) {
	if dir == "" {
		return nil, errors.New("no configuration folder for the backup signing key (set HOME or XDG_CONFIG_HOME)")
	}
	p := filepath.Join(dir, KeyFile)
	key, err := readKey(p)
	if !errors.Is(err, fs.ErrNotExist) {
		return key, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("make the backup signing key: %w", err)
	}
	key = make([]byte, 32)
	rand.Read(key)
	err = atomicfile.WriteNew(p, 0o600, func(w io.Writer) error {
		_, err := io.WriteString(w, hex.EncodeToString(key)+"\n")
		return err
	})
	if errors.Is(err, fs.ErrExist) {
		return readKey(p)
	}
	if err != nil {
		return nil, fmt.Errorf("make the backup signing key: %w", err)
	}
	return key, nil
}

// readKey reads the key file p.
func readKey(p string) ([]byte, error) {
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

// ProjectKey is the key that signs the manifest of the project in the
// folder dir (its absolute path with symlinks resolved): the user's key
// bound to that folder. A record signed for one project does not verify
// in another, so records copied out of one project of the user's (or out
// of a repository they once worked in) into another are not restored
// there unforced. A project moved or renamed verifies none of its older
// records: they need --force, as unsigned ones do. An empty key stays
// empty (it verifies nothing).
func ProjectKey(key []byte, dir string) []byte {
	if len(key) == 0 {
		return nil
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte("agent backup manifest of project\x00"))
	mac.Write([]byte(dir))
	return mac.Sum(nil)
}
