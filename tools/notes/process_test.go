package notes_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentcli/agent/tools/notes"
	"github.com/agentcli/agent/tools/notes/notestest"
)

// TestMain lets the test binary act as a second process writing notes.
func TestMain(m *testing.M) {
	switch os.Getenv("NOTES_TEST_CHILD") {
	case "writer":
		os.Exit(runWriter())
	case "updater":
		os.Exit(runUpdater())
	case "pgwriter":
		os.Exit(runPGWriter())
	}
	code := m.Run()
	notestest.StopShared()
	if bench.path != "" {
		os.RemoveAll(filepath.Dir(bench.path)) // the benchmarks' corpus
	}
	os.Exit(code)
}

func child(t *testing.T, role, db string, extra ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "NOTES_TEST_CHILD="+role, "NOTES_TEST_DB="+db)
	cmd.Env = append(cmd.Env, extra...)
	return cmd
}

// runWriter creates notes and appends to note 1 until its time is up,
// then prints how many of each it did.
func runWriter() int {
	ctx := context.Background()
	s, err := notes.Open(ctx, os.Getenv("NOTES_TEST_DB"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer s.Close()
	name := os.Getenv("NOTES_TEST_NAME")
	d, _ := time.ParseDuration(os.Getenv("NOTES_TEST_FOR"))
	created, appended := 0, 0
	for end := time.Now().Add(d); time.Now().Before(end); {
		if _, err := s.Create(ctx, notes.NewNote{Title: fmt.Sprintf("%s-%d", name, created), Content: "written by " + name}); err != nil {
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

func TestTwoProcessesWriting(t *testing.T) {
	if testing.Short() {
		t.Skip("10 s of writing; skipped under -short")
	}
	t.Parallel() // a store of its own: runs beside the other writers
	db := filepath.Join(t.TempDir(), "notes.db")
	s, err := notes.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Create(context.Background(), notes.NewNote{Title: "shared log"}); err != nil {
		t.Fatal(err)
	}
	var cmds []*exec.Cmd
	var outs, errs []*bytes.Buffer
	for _, name := range []string{"alpha", "beta"} {
		cmd := child(t, "writer", db, "NOTES_TEST_NAME="+name, "NOTES_TEST_FOR=10s")
		o, e := &bytes.Buffer{}, &bytes.Buffer{}
		cmd.Stdout, cmd.Stderr = o, e
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, outs, errs = append(cmds, cmd), append(outs, o), append(errs, e)
	}
	created, appended := 0, 0
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil || errs[i].Len() > 0 {
			t.Fatalf("writer %d: %v: %s", i, err, errs[i])
		}
		var c, a int
		if _, err := fmt.Sscan(outs[i].String(), &c, &a); err != nil {
			t.Fatalf("writer %d printed %q", i, outs[i])
		}
		if c == 0 || a == 0 {
			t.Errorf("writer %d made no progress: %d created, %d appended", i, c, a)
		}
		created, appended = created+c, appended+a
	}
	ctx := context.Background()
	page, err := s.List(ctx, notes.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if page.Total != created+1 {
		t.Errorf("%d notes, want %d (1 + %d created)", page.Total, created+1, created)
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
	if r, err := s.Search(ctx, notes.SearchOptions{Query: "written", Limit: 1}); err != nil || len(r.Hits) != 1 {
		t.Errorf("search after the writers: %v, %v", r, err)
	}
	if err := s.Check(ctx); err != nil {
		t.Error(err)
	}
	t.Logf("two processes: %d notes created, %d appends to one note in 10 s", created, appended)
}

// runUpdater replaces note 1 with ever new versions, printing each
// version's number before it writes it.
func runUpdater() int {
	ctx := context.Background()
	s, err := notes.Open(ctx, os.Getenv("NOTES_TEST_DB"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	for v := 1; ; v++ {
		content := versionContent(v)
		fmt.Println(v)
		if _, err := s.Update(ctx, 1, notes.Change{Content: &content}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
}

// versionContent is a large note whose every line names version v, so a
// torn write would show.
func versionContent(v int) string {
	line := fmt.Sprintf("marker%d %s\n", v, strings.Repeat("filler ", 20))
	return strings.Repeat(line, 2000)
}

func TestKilledMidUpdate(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "notes.db")
	s, err := notes.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	content := versionContent(0)
	if _, err := s.Create(ctx, notes.NewNote{Title: "versioned", Content: content}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if testing.Short() {
		// The plain pass kills the writer four times; a second pass
		// under the race detector would spend ten seconds on SQLite's
		// instrumented writes for no new case.
		t.Skip("kills a writing process; run without -short")
	}
	for round := range 4 {
		cmd := child(t, "updater", db)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(out)
		// Let it write a few versions, then kill it in the middle of one.
		last := 0
		for sc.Scan() && last < 3+round*2 {
			last, _ = strconv.Atoi(sc.Text())
		}
		time.Sleep(time.Duration(round) * 3 * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		if stderr.Len() > 0 {
			t.Fatalf("updater: %s", stderr.String())
		}
		checkVersioned(t, db)
	}
}

func checkVersioned(t *testing.T, db string) {
	t.Helper()
	ctx := context.Background()
	s, err := notes.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	n, err := s.Get(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	var v int
	if _, err := fmt.Sscanf(n.Content, "marker%d", &v); err != nil || n.Content != versionContent(v) {
		t.Fatalf("after the kill the note is neither an old nor a new version (starts %.30q, %d bytes)", n.Content, len(n.Content))
	}
	r, err := s.Search(ctx, notes.SearchOptions{Query: fmt.Sprintf("marker%d", v)})
	if err != nil || len(r.Hits) != 1 {
		t.Errorf("index does not find version %d: %v %v", v, r.Hits, err)
	}
	if r, _ := s.Search(ctx, notes.SearchOptions{Query: fmt.Sprintf("marker%d OR marker%d", v-1, v+1)}); len(r.Hits) != 0 {
		t.Errorf("index still finds another version than %d", v)
	}
	if err := s.Check(ctx); err != nil {
		t.Error(err)
	}
}
