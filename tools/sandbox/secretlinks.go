package sandbox

import (
	"io/fs"
	"path/filepath"
	"sync"
	"time"
)

// A command may give a secret file another name (ln .env notes.txt): a
// hard link is the same file under a name the rules do not know. So a
// file with more than one name is refused when one of them is a secret
// file of the project. (A copy is another file, which no rule can tell;
// this closes the link, which costs a command nothing to make.)

// secretLinkMemory is how long the project's secret files, found by a
// walk, are taken as they were: a walk per read of a hard-linked file
// (pnpm's node_modules is full of them) would be slow.
const secretLinkMemory = 2 * time.Second

// maxSecretWalk bounds the walk for secret files.
const maxSecretWalk = 200_000

// secretFiles are the project's secret files by identity (device and
// inode), found lately.
type secretFiles struct {
	mu   sync.Mutex
	at   time.Time
	byID map[[2]uint64]string // the secret file's project-relative path
}

// LinkedSecret returns the secret file of the project that fi, a file
// with more than one name, is another name of, or "".
func (r *Root) LinkedSecret(fi fs.FileInfo) string {
	if fi == nil || links(fi) < 2 {
		return ""
	}
	id, ok := fileID(fi)
	if !ok {
		return ""
	}
	r.secrets.mu.Lock()
	defer r.secrets.mu.Unlock()
	if r.secrets.byID == nil || time.Since(r.secrets.at) > secretLinkMemory {
		r.secrets.byID, r.secrets.at = r.findSecrets(), time.Now()
	}
	return r.secrets.byID[id]
}

// findSecrets walks the project (but .git) for the files whose names say
// they hold secrets and that the user did not allow.
func (r *Root) findSecrets() map[[2]uint64]string {
	out := map[[2]uint64]string{}
	seen := 0
	filepath.WalkDir(r.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if seen++; seen > maxSecretWalk {
			return fs.SkipAll
		}
		if d.IsDir() {
			if d.Name() == ".git" {
				return fs.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(r.dir, p)
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		rel = filepath.ToSlash(rel)
		if !IsSecretName(rel) || r.secretAllowed(rel) {
			return nil
		}
		if fi, err := d.Info(); err == nil {
			if id, ok := fileID(fi); ok {
				out[id] = rel
			}
		}
		return nil
	})
	return out
}
