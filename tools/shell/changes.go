package shell

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// stamp is what the scan keeps of a file: enough to see that a command
// created, rewrote or deleted it, without reading contents.
type stamp struct {
	size  int64
	mtime int64
	mode  fs.FileMode
}

// snapshot is the project's files at one moment. A scan that ran out of
// files or time is incomplete, and why says so.
type snapshot struct {
	files map[string]stamp
	why   string // non-empty when incomplete
}

// scan walks root, skipping .git, .agent and what ig ignores, within the
// bounds: a project too large to scan gets no list rather than a slow
// command.
func scan(root string, ig Ignorer, maxFiles int, maxTime time.Duration) snapshot {
	s := snapshot{files: map[string]stamp{}}
	deadline := time.Now().Add(maxTime)
	errStop := fmt.Errorf("stop")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || path == root {
			return nil // an unreadable folder: list what can be seen
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() && (d.Name() == ".git" || d.Name() == ".agent") {
			return filepath.SkipDir
		}
		if ig != nil && ig.Ignored(rel, d.IsDir()) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		if len(s.files) >= maxFiles {
			s.why = fmt.Sprintf("the project has more than %d files", maxFiles)
			return errStop
		}
		if len(s.files)%256 == 0 && time.Now().After(deadline) {
			s.why = fmt.Sprintf("scanning the project took over %s", maxTime)
			return errStop
		}
		fi, err := d.Info()
		if err != nil {
			return nil
		}
		s.files[rel] = stamp{size: fi.Size(), mtime: fi.ModTime().UnixNano(), mode: fi.Mode()}
		return nil
	})
	if err != nil && err != errStop && s.why == "" {
		s.why = err.Error()
	}
	return s
}

// changes are the files a command created, modified and deleted.
type changes struct {
	created, modified, deleted []string
}

func (c changes) count() int { return len(c.created) + len(c.modified) + len(c.deleted) }

// all returns every changed path, sorted.
func (c changes) all() []string {
	out := slices.Concat(c.created, c.modified, c.deleted)
	slices.Sort(out)
	return out
}

func diffSnapshots(before, after snapshot) changes {
	var c changes
	for p, a := range after.files {
		b, ok := before.files[p]
		switch {
		case !ok:
			c.created = append(c.created, p)
		case a != b:
			c.modified = append(c.modified, p)
		}
	}
	for p := range before.files {
		if _, ok := after.files[p]; !ok {
			c.deleted = append(c.deleted, p)
		}
	}
	slices.Sort(c.created)
	slices.Sort(c.modified)
	slices.Sort(c.deleted)
	return c
}

// maxListed is how many changed paths of each kind the result names.
const maxListed = 40

// render lists the changes for the model, with the reminder that undo
// cannot revert them.
func (c changes) render() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Files changed by the command (agent undo cannot revert them): %d\n", c.count())
	for _, k := range []struct {
		label string
		paths []string
	}{{"created", c.created}, {"modified", c.modified}, {"deleted", c.deleted}} {
		for i, p := range k.paths {
			if i == maxListed {
				fmt.Fprintf(&b, "%s: ... and %d more\n", k.label, len(k.paths)-maxListed)
				break
			}
			fmt.Fprintf(&b, "%s: %s\n", k.label, p)
		}
	}
	return b.String()
}
