package notes_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentcli/agent/tools/notes"
)

func TestReadImportMarkdownFolder(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"release.md":        "---\ntitle: Release steps\ntags:\n  - ops\n  - \"release\"\nfolder: plans\n---\n\ntag, build, publish\n",
		"work/ideas.md":     "# Ideas\na cache for the cache\n",
		"work/untitled.txt": "\n\n",
		".git/config.md":    "hidden",
		"image.png":         "not text",
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ns, err := notes.ReadImport(dir, "/imp", []string{"old"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]notes.NewNote{}
	for _, n := range ns {
		got[n.Title] = n
	}
	if len(ns) != 3 {
		t.Fatalf("read %d notes (%v), want 3: the hidden folder and the image skipped", len(ns), ns)
	}
	if r := got["Release steps"]; r.Folder != "/imp/plans/" || !slices.Equal(r.Tags, []string{"old", "ops", "release"}) || r.Content != "tag, build, publish\n" {
		t.Errorf("front matter note = %+v", r)
	}
	if i := got["Ideas"]; i.Folder != "/imp/work/" {
		t.Errorf("heading note = %+v, want its folder from the tree", i)
	}
	if _, ok := got["untitled"]; !ok {
		t.Errorf("a file with no text line is titled by its name: %v", ns)
	}
}

func TestReadJSONLRefusesABadLine(t *testing.T) {
	in := `{"title": "one", "content": "a", "tags": "x, y"}

{"title": "", "content": "no title"}
`
	_, err := notes.ReadJSONL(strings.NewReader(in), "lines.jsonl", "", nil)
	var ie *notes.ImportError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "lines.jsonl line 3") {
		t.Errorf("ReadJSONL with an untitled note = %v, want an ImportError naming line 3", err)
	}
	ns, err := notes.ReadJSONL(strings.NewReader(`{"title": "one", "tags": "x, y"}`), "-", "/f", []string{"t"})
	if err != nil || len(ns) != 1 || !slices.Equal(ns[0].Tags, []string{"t", "x", "y"}) || ns[0].Folder != "/f/" {
		t.Errorf("ReadJSONL = %+v, %v", ns, err)
	}
	if _, err := notes.ReadJSONL(strings.NewReader(`{"title": "x", "colour": "red"}`), "-", "", nil); !errors.As(err, &ie) {
		t.Errorf("an unknown field = %v, want an ImportError", err)
	}
}

func TestReadImportMissingPath(t *testing.T) {
	_, err := notes.ReadImport(filepath.Join(t.TempDir(), "missing"), "", nil, nil)
	var ie *notes.ImportError
	if !errors.As(err, &ie) {
		t.Errorf("a missing path = %v, want an ImportError", err)
	}
}

func TestTitleFrom(t *testing.T) {
	for in, want := range map[string]string{
		"\n\n## Release plan\nbody": "Release plan",
		"plain first line\nmore":    "plain first line",
		"":                          "",
		strings.Repeat("é", 50):     strings.Repeat("é", 40) + "…",
	} {
		if got := notes.TitleFrom(in); got != want {
			t.Errorf("TitleFrom(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestImportAllInBatches(t *testing.T) {
	s, err := notes.Open(t.Context(), filepath.Join(t.TempDir(), "notes.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ns := make([]notes.NewNote, notes.ImportBatch+3)
	for i := range ns {
		ns[i] = notes.NewNote{Title: "n", Folder: "/"}
	}
	var calls []int
	done, err := notes.ImportAll(t.Context(), s, ns, func(done, total int) { calls = append(calls, done) })
	if err != nil || done != len(ns) || !slices.Equal(calls, []int{notes.ImportBatch, len(ns)}) {
		t.Errorf("ImportAll = %d, %v, progress %v; want %d in two batches", done, err, calls, len(ns))
	}
}

func TestHighlightShown(t *testing.T) {
	ex := "a " + notes.MarkStart + "match\x1b[2J" + notes.MarkEnd + " b" + notes.MarkEnd + " \x07"
	got := notes.HighlightShown(ex, "<", ">", func(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, "\x1b", `\e`), "\x07", `\a`) })
	if want := `a <match\e[2J> b \a`; got != want {
		t.Errorf("HighlightShown = %q, want %q", got, want)
	}
}
