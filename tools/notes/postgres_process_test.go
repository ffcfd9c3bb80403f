package notes_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	osexec "os/exec"
	"strings"
	"testing"
	"time"

	"github.com/agentcli/agent/tools/notes"
)

// runPGWriter creates notes, rewrites each one it made once, and appends
// to note 1, until its time is up; then prints how many notes it created
// and how many lines it appended.
func runPGWriter() int {
	ctx := context.Background()
	s, err := notes.OpenPostgres(ctx, os.Getenv("NOTES_TEST_DB"), notes.Options{Space: os.Getenv("NOTES_TEST_SPACE")})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer s.Close()
	name := os.Getenv("NOTES_TEST_NAME")
	d, _ := time.ParseDuration(os.Getenv("NOTES_TEST_FOR"))
	created, appended := 0, 0
	for end := time.Now().Add(d); time.Now().Before(end); {
		n, err := s.Create(ctx, notes.NewNote{Title: fmt.Sprintf("%s-%d", name, created), Content: "draft", Tags: []string{name}})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		final := writerContent(name, created)
		if _, err := s.Update(ctx, n.ID, notes.Change{Content: &final}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		created++
		line := fmt.Sprintf("%s-%d\n", name, appended)
		if _, err := s.Update(ctx, 1, notes.Change{Content: &line, Mode: notes.Append}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		appended++
	}
	fmt.Printf("%d %d\n", created, appended)
	return 0
}

func writerContent(name string, i int) string {
	return fmt.Sprintf("written by %s, note %d, final version", name, i)
}

// TestPostgresEightProcesses: eight agent processes create, rewrite and
// append to notes in one space of one database for 20 s; nothing is lost
// (every note, every rewrite and every appended line is there), and
// ids are unique.
func TestPostgresEightProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("20 s of writing; skipped under -short")
	}
	t.Parallel() // a store of its own: runs beside the other writers
	url := sharedPGURL(t)
	s := openPG(t, notes.Options{Space: "eight"})
	ctx := context.Background()
	if _, err := s.Create(ctx, notes.NewNote{Title: "shared log"}); err != nil {
		t.Fatal(err)
	}
	names := []string{"p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8"}
	var cmds []*proc
	for _, name := range names {
		cmd := child(t, "pgwriter", url, "NOTES_TEST_NAME="+name, "NOTES_TEST_FOR=20s", "NOTES_TEST_SPACE=eight")
		e := &proc{cmd: cmd}
		cmd.Stdout, cmd.Stderr = &e.out, &e.err
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, e)
	}
	created := map[string]int{}
	appended := 0
	for i, e := range cmds {
		if err := e.cmd.Wait(); err != nil || e.err.Len() > 0 {
			t.Fatalf("writer %s: %v: %s", names[i], err, e.err.String())
		}
		var c, a int
		if _, err := fmt.Sscan(e.out.String(), &c, &a); err != nil || c == 0 {
			t.Fatalf("writer %s printed %q", names[i], e.out.String())
		}
		created[names[i]] = c
		appended += a
	}
	total := 1
	for _, name := range names {
		p, err := s.List(ctx, notes.ListOptions{Tag: name, Limit: notes.MaxLimit})
		if err != nil {
			t.Fatal(err)
		}
		if p.Total != created[name] {
			t.Errorf("%s: %d notes stored, %d created", name, p.Total, created[name])
		}
		total += created[name]
		for off := 0; off < p.Total; off += notes.MaxLimit {
			page, _ := s.List(ctx, notes.ListOptions{Tag: name, Limit: notes.MaxLimit, Offset: off})
			for _, n := range page.Notes {
				var i int
				fmt.Sscanf(strings.TrimPrefix(n.Title, name+"-"), "%d", &i)
				full, err := s.Get(ctx, n.ID)
				if err != nil || full.Content != writerContent(name, i) {
					t.Fatalf("note %d %q holds %q (%v), want its final version", n.ID, n.Title, full.Content, err)
				}
			}
		}
	}
	page, err := s.List(ctx, notes.ListOptions{})
	if err != nil || page.Total != total {
		t.Errorf("%d notes in the space (%v), want %d", page.Total, err, total)
	}
	log, _ := s.Get(ctx, 1)
	lines := strings.Split(strings.TrimSuffix(log.Content, "\n"), "\n")
	seen := map[string]bool{}
	for _, l := range lines {
		seen[l] = true
	}
	if len(lines) != appended || len(seen) != appended {
		t.Errorf("shared log has %d lines (%d distinct), want %d appends", len(lines), len(seen), appended)
	}
	if r, err := s.Search(ctx, notes.SearchOptions{Query: "final version", Limit: 5}); err != nil || len(r.Hits) != 5 {
		t.Errorf("search after the writers: %d hits, %v", len(r.Hits), err)
	}
	t.Logf("eight processes in 20 s: %d notes created and rewritten, %d appends to one note", total-1, appended)
}

// proc is a child process and what it printed.
type proc struct {
	cmd      *osexec.Cmd
	out, err bytes.Buffer
}
