package main

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
	"time"

	"github.com/spf13/cobra"

	"github.com/agentcli/agent/tools/notes"
)

// importBatch is how many notes one transaction of an import holds.
const importBatch = 5000

func newNotesImportCmd(d *factory, o *notesOptions) *cobra.Command {
	var folder, tags string
	cmd := &cobra.Command{
		Use:   "import PATH...",
		Short: "Import many notes at once: a folder of Markdown files, or JSON Lines",
		Long: `import creates a note for each Markdown file (.md, .markdown, .txt) under
the folders given, and for each line of the .jsonl files given (- reads
JSON Lines from standard input), in transactions of 5,000 notes: tens of
thousands of notes a second.

A Markdown file's title is its front matter's title: (between --- lines
at the top, with tags: and folder: too), else its first line; its folder
is --folder joined with the file's folder under the one imported. A JSON
line is {"title": ..., "content": ..., "folder": ..., "tags": [...]}.
Every note is checked before any is written; one that is not valid stops
the import, naming its file or line. Imported notes are not embedded:
with [notes.embeddings], run agent notes reindex afterwards.`,
		Example: `  agent notes import ~/obsidian/vault
  agent notes import --folder /imported --tags old notes.jsonl
  some-export | agent notes import -`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			extra, err := notes.ParseTags(tags)
			if err != nil {
				return usageError{err}
			}
			var all []notes.NewNote
			for _, a := range args {
				ns, err := readImport(d, a, folder, extra)
				if err != nil {
					return err
				}
				all = append(all, ns...)
			}
			if len(all) == 0 {
				return usageErrorf("nothing to import: no Markdown files or JSON lines in %s", strings.Join(args, ", "))
			}
			return o.withStore(cmd, d, func(ctx context.Context, s notes.Store) error {
				bar := newProgress(d, "importing")
				start := time.Now()
				done, err := importBatches(ctx, s, all, bar)
				if err != nil {
					return fmt.Errorf("imported %d of %d notes, then: %w", done, len(all), err)
				}
				took := time.Since(start)
				if o.asJSON {
					return printJSON(d, map[string]any{"imported": done, "seconds": took.Seconds()})
				}
				fmt.Fprintf(d.io.Out, "imported %d notes in %s (%.0f notes/s)\n", done, took.Round(time.Millisecond), float64(done)/took.Seconds())
				if o.emb != nil {
					fmt.Fprintln(d.io.ErrOut, "agent: note: imported notes are not embedded yet; agent notes reindex embeds them")
				}
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&folder, "folder", "", "put the notes under this folder")
	cmd.Flags().StringVar(&tags, "tags", "", "add these tags to every note, comma-separated")
	return cmd
}

// importBatches imports ns in transactions of importBatch notes and
// returns how many were imported. PostgreSQL imports several batches at
// once, on as many connections as there are cores (the server indexes
// each note, to_tsvector, in the process of its connection); SQLite has
// one writer, so one batch at a time.
func importBatches(ctx context.Context, s notes.Store, ns []notes.NewNote, progress func(done, total int)) (int, error) {
	workers := 1
	if _, ok := s.(*notes.Postgres); ok {
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
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				if first != nil || next >= len(ns) {
					mu.Unlock()
					return
				}
				from := next
				next = min(next+importBatch, len(ns))
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
		}()
	}
	wg.Wait()
	return done, first
}

// readImport reads the notes of one import argument: "-" (JSON Lines on
// standard input), a .jsonl file, a Markdown file or a folder of them.
func readImport(d *factory, path, folder string, tags []string) ([]notes.NewNote, error) {
	if path == "-" {
		return readJSONL(d.io.In, "standard input", folder, tags)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, usageErrorf("import %s: %v", path, errors.Unwrap(err))
	}
	if !fi.IsDir() {
		if strings.HasSuffix(path, ".jsonl") {
			f, err := os.Open(path)
			if err != nil {
				return nil, err
			}
			defer f.Close()
			return readJSONL(f, path, folder, tags)
		}
		n, err := readMarkdown(path, folder, tags)
		if err != nil {
			return nil, err
		}
		return []notes.NewNote{n}, nil
	}
	var out []notes.NewNote
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

// readMarkdown reads one Markdown file as a note, checked.
func readMarkdown(path, folder string, tags []string) (notes.NewNote, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return notes.NewNote{}, err
	}
	if len(data) > notes.MaxContent {
		return notes.NewNote{}, usageErrorf("import %s: %d bytes; a note holds at most %d", path, len(data), notes.MaxContent)
	}
	n := notes.NewNote{Content: string(data), Folder: folder, Tags: tags}
	meta, body := frontMatter(n.Content)
	n.Content = body
	if v := meta["title"]; v != "" {
		n.Title = v
	} else if n.Title = firstLine(body); n.Title == "" {
		n.Title = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	if v := meta["folder"]; v != "" {
		n.Folder = folder + "/" + v
	}
	if v := meta["tags"]; v != "" {
		more, err := notes.ParseTags(strings.Trim(v, "[]"))
		if err != nil {
			return notes.NewNote{}, usageErrorf("import %s: %v", path, err)
		}
		n.Tags = append(append([]string{}, tags...), more...)
	}
	checked, err := notes.Check(n)
	if err != nil {
		return notes.NewNote{}, usageErrorf("import %s: %v", path, err)
	}
	return checked, nil
}

// frontMatter splits "---\nkey: value\n---\n" off the top of a Markdown
// text: the keys (lowercase) with their values, and the rest. A list
// under a key ("tags:" then "- a" lines) is joined with commas.
func frontMatter(text string) (map[string]string, string) {
	rest, ok := strings.CutPrefix(text, "---\n")
	if !ok {
		return nil, text
	}
	head, body, ok := strings.Cut(rest, "\n---\n")
	if !ok {
		return nil, text
	}
	meta := map[string]string{}
	last := ""
	for _, line := range strings.Split(head, "\n") {
		if item, ok := strings.CutPrefix(strings.TrimSpace(line), "- "); ok && last != "" {
			meta[last] = strings.TrimPrefix(meta[last]+", "+strings.Trim(item, `"'`), ", ")
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		last = strings.ToLower(strings.TrimSpace(k))
		meta[last] = strings.Trim(strings.TrimSpace(v), `"'`)
	}
	return meta, strings.TrimPrefix(body, "\n")
}

// importLine is one JSON line of an import.
type importLine struct {
	Title   string          `json:"title"`
	Content string          `json:"content"`
	Folder  string          `json:"folder"`
	Tags    json.RawMessage `json:"tags"`
}

// readJSONL reads one note a line, checked; blank lines are skipped.
func readJSONL(r io.Reader, name, folder string, tags []string) ([]notes.NewNote, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 4*notes.MaxContent)
	var out []notes.NewNote
	for line := 1; sc.Scan(); line++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var l importLine
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&l); err != nil {
			return nil, usageErrorf("import %s line %d: not a note as JSON (%v)", name, line, err)
		}
		n := notes.NewNote{Title: l.Title, Content: l.Content, Folder: folder + "/" + l.Folder, Tags: tags}
		if len(l.Tags) > 0 && string(l.Tags) != "null" {
			var list []string
			var s string
			switch {
			case json.Unmarshal(l.Tags, &list) == nil:
			case json.Unmarshal(l.Tags, &s) == nil:
				list = strings.Split(s, ",")
			default:
				return nil, usageErrorf("import %s line %d: tags must be a list of strings", name, line)
			}
			n.Tags = append(append([]string{}, tags...), list...)
		}
		checked, err := notes.Check(n)
		if err != nil {
			return nil, usageErrorf("import %s line %d: %v", name, line, err)
		}
		out = append(out, checked)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("import %s: %w", name, err)
	}
	return out, nil
}
