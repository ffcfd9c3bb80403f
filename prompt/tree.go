package prompt

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/agentcli/agent/internal/dirent"
)

// Defaults of TreeOptions.
const (
	DefaultBudget     = 300
	DefaultCountLimit = 100_000
)

// Style is how the tree marks files and folders.
type Style int

// The tree styles. Emoji is the seed's style; Plain suits models that
// handle emoji poorly (and costs fewer tokens).
const (
	Emoji Style = iota // 📝 file, 📁 folder/
	Plain              // file, folder/
)

// ParseStyle returns the style called s ("emoji" or "plain").
func ParseStyle(s string) (Style, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "emoji":
		return Emoji, nil
	case "plain":
		return Plain, nil
	}
	return Emoji, fmt.Errorf("unknown tree style %q (want emoji or plain)", s)
}

// String returns the style's name.
func (s Style) String() string {
	if s == Plain {
		return "plain"
	}
	return "emoji"
}

// TreeOptions bound and shape the file tree.
type TreeOptions struct {
	// Budget is the most lines the tree has; DefaultBudget when zero.
	Budget int
	// FolderLimit is the most entries a folder may have and still be
	// opened; a bigger folder is shown collapsed with its file count, so
	// that one generated folder cannot use up the whole budget. Budget/3
	// when zero.
	FolderLimit int
	// CountLimit stops the count of a collapsed folder at this many files
	// (shown as "100,000+ files"); DefaultCountLimit when zero.
	CountLimit int
	Style      Style
	// Ignore holds the rules; they are loaded from the root when nil.
	Ignore *Ignore

	// scan replaces the folder reader in tests: they run as root in CI,
	// where permissions cannot make a folder unreadable.
	scan scanFunc
}

// Tree is a rendered file tree.
type Tree struct {
	// Text is the tree, one entry per line, each line ending in "\n".
	Text string
	// Lines is the number of lines of Text (at most the budget).
	Lines int
	// Files is the number of files that are not ignored, including those
	// inside collapsed folders (a lower bound when a count hit its limit).
	Files int
	// Collapsed is the number of folders shown with a count instead of
	// their entries.
	Collapsed int
}

// alwaysCollapsed are folders that are never opened even when small and
// not ignored: their content is installed or generated, and listing it
// would only spend the budget. They are still counted.
var alwaysCollapsed = map[string]bool{
	"node_modules": true, "__pycache__": true, ".venv": true, "venv": true,
	".tox": true, ".mypy_cache": true, ".pytest_cache": true, ".ruff_cache": true,
	".gradle": true, ".next": true, ".nuxt": true, ".svelte-kit": true, ".terraform": true,
}

// node is one entry of the tree.
type node struct {
	name     string
	isDir    bool
	link     string // target, for a symbolic link
	children []*node
	expanded bool
	// For folders that are not expanded:
	unreadable bool
	files      atomic.Int64 // counted so far
}

// BuildTree walks root breadth-first and renders at most opts.Budget lines:
// the top levels always show, folders are opened in order while their
// entries fit in what is left of the budget, and the others are shown
// collapsed with the number of files they hold. Collapsed folders are
// counted, not listed, and counting runs in parallel with the walk.
func BuildTree(ctx context.Context, root string, opts TreeOptions) (Tree, error) {
	if opts.Budget <= 0 {
		opts.Budget = DefaultBudget
	}
	if opts.FolderLimit <= 0 {
		opts.FolderLimit = max(opts.Budget/3, 1)
	}
	if opts.CountLimit <= 0 {
		opts.CountLimit = DefaultCountLimit
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return Tree{}, err
	}
	ig := opts.Ignore
	if ig == nil {
		if ig, err = NewIgnore(abs); err != nil {
			return Tree{}, err
		}
	}
	if opts.scan == nil {
		opts.scan = dirent.Scan
	}
	var l listing
	if err := l.read(opts.scan, abs); err != nil {
		return Tree{}, fmt.Errorf("read project folder: %w", err)
	}
	c := newCounter(ctx, int64(opts.CountLimit), opts.scan)
	defer c.stop()
	w := &walker{opts: opts, root: abs}
	top := &node{expanded: true}
	top.children = w.filter(&l, ig.Root())
	w.show(top.children, ig.Root())
	left := opts.Budget
	var hidden []*node // root entries past the budget: counted, not shown
	if len(top.children) > left {
		top.children, hidden = overflow(top.children, left-1)
		left = 0 // the last line says what is hidden
	} else {
		left -= len(top.children)
	}
	for _, h := range hidden {
		if h.isDir {
			c.add(h, ig.Root(), abs+string(filepath.Separator)+h.name, h.name)
		}
	}
	type queued struct {
		n   *node
		abs string
		dir *Dir
	}
	queue := []queued{{top, abs, ig.Root()}}
	for len(queue) > 0 {
		if err := ctx.Err(); err != nil {
			return Tree{}, err
		}
		q := queue[0]
		queue = queue[1:]
		for _, ch := range q.n.children {
			if !ch.isDir {
				continue
			}
			chAbs := q.abs + string(filepath.Separator) + ch.name
			if left == 0 || alwaysCollapsed[ch.name] {
				// Nothing more can be shown: leave it to the counters.
				c.add(ch, q.dir, chAbs, ch.name)
				continue
			}
			if err := l.read(opts.scan, chAbs); err != nil {
				ch.unreadable = true
				continue
			}
			sub := q.dir.sub(ch.name, l.hasGit, l.hasAgent)
			if n := w.visible(&l, sub); n > left || n > opts.FolderLimit {
				c.addListed(ch, sub, chAbs, &l)
				continue
			}
			ch.children = w.filter(&l, sub)
			w.show(ch.children, sub)
			ch.expanded = true
			left -= len(ch.children)
			queue = append(queue, queued{ch, chAbs, sub})
		}
	}
	c.wait()
	if err := ctx.Err(); err != nil {
		return Tree{}, err
	}
	var b strings.Builder
	t := Tree{}
	for _, ch := range top.children {
		w.render(&b, ch, 0, &t)
	}
	for _, h := range hidden {
		t.Files += w.countOf(h)
	}
	if len(hidden) > 0 {
		what := "files"
		for _, h := range hidden {
			if h.isDir {
				what = "entries"
			}
		}
		fmt.Fprintf(&b, "... and %s more %s\n", thousands(len(hidden)), what)
		t.Lines++
	}
	t.Text = b.String()
	return t, nil
}

// overflow splits the sorted entries of a root folder that has more than
// n of them into the n shown and the rest. Folders are kept before files:
// they carry the project's structure, and their counts say what is inside.
func overflow(nodes []*node, n int) (shown, hidden []*node) {
	var files, dirs []*node
	for _, c := range nodes {
		if c.isDir {
			dirs = append(dirs, c)
		} else {
			files = append(files, c)
		}
	}
	nd := min(len(dirs), n)
	nf := n - nd
	shown = append(append(shown, files[:nf]...), dirs[:nd]...)
	hidden = append(append(hidden, files[nf:]...), dirs[nd:]...)
	return shown, hidden
}

type walker struct {
	opts TreeOptions
	root string // absolute project folder
}

// visible counts the entries of a listing that are not ignored.
func (w *walker) visible(l *listing, d *Dir) int {
	n := 0
	for i, e := range l.ents {
		if e.typ != typeOther && !d.Ignored(l.name(i), e.typ == typeDir) {
			n++
		}
	}
	return n
}

// filter returns the entries of a listing that are not ignored, as nodes.
// Pipes, sockets and devices are left out, as ignored entries are: they
// are no files the model can read or edit, and showing one as a file
// (📝) would only invite a read that the file tools refuse.
func (w *walker) filter(l *listing, d *Dir) []*node {
	var nodes []*node
	for i, e := range l.ents {
		name := l.name(i)
		if e.typ == typeOther || d.Ignored(name, e.typ == typeDir) {
			continue
		}
		n := &node{name: strings.Clone(name), isDir: e.typ == typeDir}
		if e.typ == typeLink {
			n.link = "?"
		}
		nodes = append(nodes, n)
	}
	return nodes
}

// show prepares entries that will be displayed: sorted with files first,
// then folders, each in byte order (so the output never depends on the
// order the file system returns), and links resolved.
func (w *walker) show(nodes []*node, d *Dir) {
	slices.SortFunc(nodes, func(a, b *node) int {
		if a.isDir != b.isDir {
			if a.isDir {
				return 1
			}
			return -1
		}
		return cmp.Compare(a.name, b.name)
	})
	for _, n := range nodes {
		if n.link != "" {
			if target, err := os.Readlink(filepath.Join(d.abs, n.name)); err == nil {
				n.link = w.linkTarget(d.abs, target)
			}
		}
	}
}

// linkTarget is what the tree shows of a link's target: the target as
// written when it stays inside the project, and nothing of a path outside
// it (a link to ~/.aws/credentials must not tell the model where it is).
func (w *walker) linkTarget(dir, target string) string {
	abs := target
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(dir, target)
	}
	rel, err := filepath.Rel(w.root, filepath.Clean(abs))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "(outside the project)"
	}
	return target
}

// countOf returns the number of files of a node that is not expanded.
func (w *walker) countOf(n *node) int {
	if !n.isDir {
		return 1
	}
	return min(int(n.files.Load()), w.opts.CountLimit)
}
