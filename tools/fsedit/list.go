package fsedit

import (
	"context"
	_ "embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/agentcli/agent/internal/termtext"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/sandbox"
)

//go:embed list_directory.md
var listDesc string

// Listing bounds: the default and largest depth, the entries shown, and
// the entries counted before the count is reported as "N+".
const (
	defaultListDepth = 2
	maxListDepth     = 10
	maxListEntries   = 300
	maxListCount     = 20000
)

// ListArgs are list_directory's parameters.
type ListArgs struct {
	Path  string `json:"path,omitempty" path:"true" jsonschema:"folder relative to the project root; default the root"`
	Depth *int   `json:"depth,omitempty" jsonschema:"how many folder levels to show, 1-10; default 2"`
}

// ListTool returns list_directory.
func (s *Session) ListTool() tools.Tool {
	return tools.New("list_directory", listDesc, sandbox.Guarded(s.list, func(a ListArgs) string { return a.Path }), tools.Acts(tools.ActionRead))
}

// lister walks a folder for list_directory, writing lines until the
// entry limit and counting the rest.
type lister struct {
	ctx     context.Context
	fsys    fs.FS
	ig      sandbox.Ignorer
	depth   int
	out     strings.Builder
	shown   int
	total   int
	omitted bool
}

func (s *Session) list(ctx context.Context, a ListArgs) (tools.Result, error) {
	depth := defaultListDepth
	if a.Depth != nil {
		depth = *a.Depth
	}
	if depth < 1 || depth > maxListDepth {
		return tools.Errorf(tools.CodeSchemaInvalid, "depth must be between 1 and %d, got %d", maxListDepth, depth), nil
	}
	t, err := s.root.Resolve(a.Path)
	if err != nil {
		if rf, ok := sandbox.AsRefusal(sandbox.Target{Asked: a.Path}, err); ok {
			return rf.Result(), nil
		}
		return tools.Result{}, err
	}
	if t.Info == nil {
		return tools.Errorf(tools.CodeFileNotFound, "folder not found: %s; list the project root (no path) to see what exists", a.Path), nil
	}
	if !t.Info.IsDir() {
		return tools.Errorf(tools.CodeUnsupportedType, "%s is a file, not a folder; read it with read_file", a.Path), nil
	}
	root, err := s.root.Handle()
	if err != nil {
		return tools.Result{}, err
	}
	fsys := root.FS()
	ig := s.ignorer()
	note := ""
	if ignoredPath(ig, t.Rel) {
		// Asked for by name: list it, as ls would, rather than show an
		// ignored folder as empty.
		ig, note = sandbox.NoIgnore{}, " (ignored by .gitignore, listed because asked for)"
	}
	l := &lister{ctx: ctx, fsys: fsys, ig: ig, depth: depth}
	if err := l.walk(t.Rel, 1); err != nil {
		if sandbox.IsPermErr(err) {
			return sandbox.PermDenied(a.Path, "read").Result(), nil
		}
		return tools.Result{}, err
	}
	total := sandbox.Itoa(l.total)
	if l.total >= maxListCount {
		total += "+"
	}
	if l.omitted {
		fmt.Fprintf(&l.out, "... %d more entries not shown; list a subfolder or use a smaller depth\n", l.total-l.shown)
	}
	shownPath := t.Rel
	if shownPath == "." {
		shownPath = "(project root)"
	}
	return tools.Result{
		Message: fmt.Sprintf("%s: %d of %s entries, depth %d%s", shownPath, l.shown, total, depth, note),
		Metadata: []tools.Attr{
			{Name: "path", Value: t.Rel}, {Name: "depth", Value: sandbox.Itoa(depth)},
			{Name: "shown", Value: sandbox.Itoa(l.shown)}, {Name: "total", Value: total},
		},
		Content: l.out.String(),
	}, nil
}

// ignoredPath reports whether rel, or a folder above it, is ignored.
func ignoredPath(ig sandbox.Ignorer, rel string) bool {
	for p := rel; p != "." && p != "/" && p != ""; p = path.Dir(p) {
		if ig.Ignored(p, true) {
			return true
		}
	}
	return false
}

// entries reads dir, dropping protected and ignored entries; folders first.
func (l *lister) entries(dir string) ([]fs.DirEntry, error) {
	ents, err := fs.ReadDir(l.fsys, dir)
	if err != nil {
		return nil, err
	}
	kept := ents[:0]
	for _, e := range ents {
		rel := path.Join(dir, e.Name())
		if sandbox.IsProtected(e.Name()) || l.ig.Ignored(rel, e.IsDir()) {
			continue
		}
		kept = append(kept, e)
	}
	sort.SliceStable(kept, func(i, j int) bool { return kept[i].IsDir() && !kept[j].IsDir() })
	return kept, nil
}

func (l *lister) walk(dir string, level int) error {
	if err := l.ctx.Err(); err != nil {
		return err
	}
	ents, err := l.entries(dir)
	if err != nil {
		if level == 1 {
			return fmt.Errorf("list %s: %w", dir, err)
		}
		return nil // an unreadable subfolder is left out, not fatal
	}
	indent := strings.Repeat("  ", level-1)
	for _, e := range ents {
		if l.total >= maxListCount {
			return nil
		}
		l.total++
		show := l.shown < maxListEntries
		if show {
			l.shown++
		} else {
			l.omitted = true
		}
		rel := path.Join(dir, e.Name())
		switch {
		case e.Type()&fs.ModeSymlink != 0:
			if show {
				fmt.Fprintf(&l.out, "%s%s@ (symlink)\n", indent, termtext.Name(e.Name()))
			}
		case e.IsDir():
			if level >= l.depth {
				if show {
					fmt.Fprintf(&l.out, "%s%s/ (%s)\n", indent, termtext.Name(e.Name()), l.describe(rel))
				}
				continue
			}
			if show {
				fmt.Fprintf(&l.out, "%s%s/\n", indent, termtext.Name(e.Name()))
			}
			if err := l.walk(rel, level+1); err != nil {
				return err
			}
		default:
			if show {
				size := ""
				if fi, err := e.Info(); err == nil {
					size = "  " + sandbox.HumanSize(fi.Size())
				}
				fmt.Fprintf(&l.out, "%s%s%s\n", indent, termtext.Name(e.Name()), size)
			}
		}
	}
	return nil
}

// describe says what a folder below the depth limit holds.
func (l *lister) describe(dir string) string {
	ents, err := l.entries(dir)
	if err != nil {
		return "unreadable"
	}
	if len(ents) == 0 {
		return "empty"
	}
	return sandbox.Plural(len(ents), "entry", "entries") + ", not listed"
}
