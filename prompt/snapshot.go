package prompt

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Snapshot bounds: a project bigger than this is only partly watched,
// and a note never lists more than snapshotNoteNames paths.
const (
	snapshotMaxFiles  = 20_000
	snapshotMaxTime   = 200 * time.Millisecond
	snapshotNoteNames = 12
)

// stamp is what a Snapshot remembers of a file.
type stamp struct {
	size    int64
	modTime time.Time
}

// Snapshot remembers the project's visible files (the ones the file tree
// shows: .gitignore and .agentignore respected, .git and .agent left out)
// with their sizes and modification times, so that a later look can tell
// which files someone else created, changed or deleted between two turns
// of a conversation. It is bounded in files and time: a huge project is
// watched in part rather than slowing every turn.
type Snapshot struct {
	root  string
	files map[string]stamp
	// partial is true when the walk stopped at a bound: a file missing
	// from a partial snapshot is not reported as deleted.
	partial bool
}

// TakeSnapshot walks the project at root.
func TakeSnapshot(ctx context.Context, root string) *Snapshot {
	s := &Snapshot{root: root, files: map[string]stamp{}}
	ig, err := NewIgnore(root)
	if err != nil {
		s.partial = true
		return s
	}
	deadline := time.Now().Add(snapshotMaxTime)
	type job struct {
		abs string
		dir *Dir
	}
	queue := []job{{root, ig.Root()}}
	for len(queue) > 0 {
		if ctx.Err() != nil || time.Now().After(deadline) || len(s.files) >= snapshotMaxFiles {
			s.partial = true
			return s
		}
		j := queue[0]
		queue = queue[1:]
		entries, err := os.ReadDir(j.abs)
		if err != nil {
			continue
		}
		for _, e := range entries {
			name := e.Name()
			isDir := e.IsDir()
			if j.dir.Ignored(name, isDir) {
				continue
			}
			abs := filepath.Join(j.abs, name)
			if isDir {
				queue = append(queue, job{abs, j.dir.Sub(name, nil)})
				continue
			}
			if !e.Type().IsRegular() {
				continue
			}
			info, err := e.Info()
			if err != nil {
				continue
			}
			rel, _ := filepath.Rel(root, abs)
			s.files[filepath.ToSlash(rel)] = stamp{info.Size(), info.ModTime()}
		}
	}
	return s
}

// Changes walks the project again, compares it with s and returns a
// short note of the files created, changed and deleted since, leaving out
// the paths in ours (the agent's own writes). s then holds the new state.
// It returns "" when nothing else changed.
func (s *Snapshot) Changes(ctx context.Context, ours []string) string {
	next := TakeSnapshot(ctx, s.root)
	skip := make(map[string]bool, len(ours))
	for _, p := range ours {
		skip[filepath.ToSlash(p)] = true
	}
	var created, changed, deleted []string
	for p, st := range next.files {
		old, ok := s.files[p]
		switch {
		case skip[p]:
		case !ok && !s.partial:
			created = append(created, p)
		case ok && (old.size != st.size || !old.modTime.Equal(st.modTime)):
			changed = append(changed, p)
		}
	}
	if !next.partial {
		for p := range s.files {
			if _, ok := next.files[p]; !ok && !skip[p] {
				deleted = append(deleted, p)
			}
		}
	}
	*s = *next
	var parts []string
	for _, g := range []struct {
		verb  string
		paths []string
	}{{"created", created}, {"changed", changed}, {"deleted", deleted}} {
		if len(g.paths) > 0 {
			parts = append(parts, g.verb+" "+nameList(g.paths))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "[Since your last turn, project files changed outside the agent: " + strings.Join(parts, "; ") +
		". Read a file again before relying on what you saw of it.]"
}

// nameList lists paths in order, at most snapshotNoteNames of them.
func nameList(paths []string) string {
	slices.Sort(paths)
	if len(paths) <= snapshotNoteNames {
		return strings.Join(paths, ", ")
	}
	return strings.Join(paths[:snapshotNoteNames], ", ") + fmt.Sprintf(" and %d more", len(paths)-snapshotNoteNames)
}
