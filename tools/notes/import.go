package notes

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"

	"github.com/agentcli/agent/internal/termtext"
	"github.com/agentcli/agent/tools/frontmatter"
)

// ImportBatch is how many notes one transaction of an import holds.
const ImportBatch = 5000

// MaxImportFile bounds one JSON Lines file of an import (a Markdown file
// is bounded by MaxContent, a note's size): an import reads a regular
// file only, and no more of it than this, so a file that keeps growing
// cannot take the memory either.
const MaxImportFile = 1 << 30

// ImportError is an input of an import that cannot become notes: a file
// too large, a line that is not a note as JSON, a note Check refuses.
// The input is at fault, not the store; its message names the file or
// line.
type ImportError struct{ msg string }

func (e *ImportError) Error() string { return e.msg }

func importErrorf(format string, args ...any) error {
	return &ImportError{msg: fmt.Sprintf(format, args...)}
}

// ReadImport reads the notes of one import argument, each checked: "-"
// (JSON Lines on stdin), a .jsonl file, a Markdown file, or a folder of
// Markdown files (.md, .markdown, .txt; hidden folders such as .git are
// skipped, and so is anything but a regular file). Each note goes under
// folder (a folder's notes under their subfolder too) and gets tags.
func ReadImport(path, folder string, tags []string, stdin io.Reader) ([]NewNote, error) {
	if path == "-" {
		return ReadJSONL(stdin, "standard input", folder, tags)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, importErrorf("import %s: %v", path, errors.Unwrap(err))
	}
	if !fi.IsDir() {
		if strings.HasSuffix(path, ".jsonl") {
			f, fi, err := openImport(path)
			if err != nil {
				return nil, err
			}
			defer f.Close()
			if fi.Size() > MaxImportFile {
				return nil, importErrorf("import %s: %d bytes; an import file holds at most %d (split it, or pipe it to agent notes import -)", path, fi.Size(), MaxImportFile)
			}
			return ReadJSONL(io.LimitReader(f, MaxImportFile), path, folder, tags)
		}
		n, err := readMarkdown(path, folder, tags)
		if err != nil {
			return nil, err
		}
		return []NewNote{n}, nil
	}
	var out []NewNote
	err = filepath.WalkDir(path, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			if p != path && strings.HasPrefix(e.Name(), ".") {
				return filepath.SkipDir // .git, .obsidian
			}
			return nil
		}
		switch strings.ToLower(filepath.Ext(p)) {
		case ".md", ".markdown", ".txt":
		default:
			return nil
		}
		if !e.Type().IsRegular() {
			return nil // no symlinks, devices or FIFOs
		}
		rel, _ := filepath.Rel(path, filepath.Dir(p))
		n, err := readMarkdown(p, folder+"/"+filepath.ToSlash(rel), tags)
		if err != nil {
			return err
		}
		out = append(out, n)
		return nil
	})
	return out, err
}

// readMarkdown reads one Markdown file as a note, checked: its title is
// its front matter's title: (tools/frontmatter), else its first line
// (TitleFrom), else the file's name; folder: and tags: there add to
// folder and tags.
func readMarkdown(path, folder string, tags []string) (NewNote, error) {
	f, fi, err := openImport(path)
	if err != nil {
		return NewNote{}, err
	}
	defer f.Close()
	if fi.Size() > MaxContent {
		return NewNote{}, importErrorf("import %s: %d bytes; a note holds at most %d", path, fi.Size(), MaxContent)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxContent+1))
	if err != nil {
		return NewNote{}, fmt.Errorf("import %s: %w", path, err)
	}
	if len(data) > MaxContent {
		return NewNote{}, importErrorf("import %s: more than %d bytes; a note holds at most %d", path, MaxContent, MaxContent)
	}
	n := NewNote{Content: string(data), Folder: folder, Tags: tags}
	// A front matter that cannot be read (a vault's odd YAML) leaves
	// the whole file as the note's text, as a file without one.
	meta, body, err := frontmatter.Parse(n.Content)
	if err == nil {
		n.Content = strings.TrimPrefix(strings.TrimPrefix(body, "\r\n"), "\n")
	}
	if v, ok := metaText(meta, "title"); ok && v != "" {
		n.Title = v
	} else if n.Title = TitleFrom(n.Content); n.Title == "" {
		n.Title = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	if v, ok := metaText(meta, "folder"); ok && v != "" {
		n.Folder = folder + "/" + v
	}
	if v, ok := metaText(meta, "tags"); ok && v != "" {
		more, err := ParseTags(strings.Trim(v, "[]"))
		if err != nil {
			return NewNote{}, importErrorf("import %s: %v", path, err)
		}
		n.Tags = append(append([]string{}, tags...), more...)
	}
	checked, err := Check(n)
	if err != nil {
		return NewNote{}, importErrorf("import %s: %v", path, err)
	}
	return checked, nil
}

// openImport opens the file path of an import: a regular file only,
// wherever its symlinks lead, never one of the kernel's (/proc, /sys,
// /dev: /dev/zero never ends, /proc/self/environ is the environment) nor
// a FIFO (which would wait for a writer forever). It is opened without
// blocking and checked again once open, so a file swapped for a FIFO
// meanwhile is refused too.
func openImport(path string) (*os.File, fs.FileInfo, error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil, nil, importErrorf("import %s: %v", path, errors.Unwrap(err))
	}
	if abs, err := filepath.Abs(real); err == nil {
		for _, dir := range []string{"/proc", "/sys", "/dev"} {
			if abs == dir || strings.HasPrefix(abs, dir+"/") {
				return nil, nil, importErrorf("import %s: it leads to %s, which is not a file of notes", path, abs)
			}
		}
	}
	want, err := os.Stat(real)
	if err != nil {
		return nil, nil, importErrorf("import %s: %v", path, errors.Unwrap(err))
	}
	if !want.Mode().IsRegular() {
		return nil, nil, importErrorf("import %s: it is not a regular file (a FIFO, a device or a socket is not imported)", path)
	}
	f, err := os.OpenFile(real, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, importErrorf("import %s: %v", path, errors.Unwrap(err))
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || !os.SameFile(want, fi) {
		f.Close()
		return nil, nil, importErrorf("import %s: it changed while it was being opened, or is not a regular file", path)
	}
	return f, fi, nil
}

// metaText is the value of a front matter key (any case) as text: a
// scalar as written, a list's items joined with commas.
func metaText(m frontmatter.Matter, key string) (string, bool) {
	for _, f := range m.Fields {
		if !strings.EqualFold(f.Key, key) {
			continue
		}
		if items, ok := f.Value.Strings(); ok {
			return strings.Join(items, ","), true
		}
		return strings.TrimSpace(f.Value.Text), f.Value.Kind == frontmatter.Scalar
	}
	return "", false
}

// importLine is one JSON line of an import.
type importLine struct {
	Title   string          `json:"title"`
	Content string          `json:"content"`
	Folder  string          `json:"folder"`
	Tags    json.RawMessage `json:"tags"`
}

// ReadJSONL reads one note a line of r (called name in errors), each
// checked; blank lines are skipped. A line is {"title": ..., "content":
// ..., "folder": ..., "tags": [...]}; tags may also be one
// comma-separated string.
func ReadJSONL(r io.Reader, name, folder string, tags []string) ([]NewNote, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 4*MaxContent)
	var out []NewNote
	for line := 1; sc.Scan(); line++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var l importLine
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&l); err != nil {
			return nil, importErrorf("import %s line %d: not a note as JSON (%v)", name, line, err)
		}
		n := NewNote{Title: l.Title, Content: l.Content, Folder: folder + "/" + l.Folder, Tags: tags}
		if len(l.Tags) > 0 && string(l.Tags) != "null" {
			var list []string
			var s string
			switch {
			case json.Unmarshal(l.Tags, &list) == nil:
			case json.Unmarshal(l.Tags, &s) == nil:
				list = strings.Split(s, ",")
			default:
				return nil, importErrorf("import %s line %d: tags must be a list of strings", name, line)
			}
			n.Tags = append(append([]string{}, tags...), list...)
		}
		checked, err := Check(n)
		if err != nil {
			return nil, importErrorf("import %s line %d: %v", name, line, err)
		}
		out = append(out, checked)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("import %s: %w", name, err)
	}
	return out, nil
}

// ImportAll imports ns in transactions of ImportBatch notes, calling
// progress after each, and returns how many were imported. PostgreSQL
// imports several batches at once, on as many connections as there are
// cores (up to 4: the server indexes each note, to_tsvector, in the
// process of its connection); SQLite has one writer, so one batch at a
// time.
func ImportAll(ctx context.Context, s Store, ns []NewNote, progress func(done, total int)) (int, error) {
	workers := 1
	if _, ok := s.(*Postgres); ok {
		workers = min(4, runtime.NumCPU())
	}
	var (
		mu    sync.Mutex
		done  int
		first error
		next  int
		wg    sync.WaitGroup
	)
	for range workers {
		wg.Go(func() {
			for {
				mu.Lock()
				if first != nil || next >= len(ns) {
					mu.Unlock()
					return
				}
				from := next
				next = min(next+ImportBatch, len(ns))
				to := next
				mu.Unlock()
				_, err := s.Import(ctx, ns[from:to])
				mu.Lock()
				if err != nil {
					first = cmp.Or(first, err)
				} else {
					done += to - from
					progress(done, len(ns))
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return done, first
}

// TitleFrom is a title taken from a note's text: its first non-empty
// line, without Markdown heading marks, at most 80 bytes.
func TitleFrom(text string) string {
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), "#"))
		if l != "" {
			return termtext.Clip(l, 80)
		}
	}
	return ""
}
