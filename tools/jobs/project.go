package jobs

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// OpenProject opens the jobs database of the project at root, nil when it
// does not exist (no job was ever started there). Opening marks lost the
// jobs of agent processes that died.
func OpenProject(ctx context.Context, root string) (*Store, error) {
	path := filepath.Join(root, DefaultPath)
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return Open(ctx, path, filepath.Join(root, DefaultLogDir))
}
