package jobs

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestJobIsRecordedBeforeItStartsAndRunningBeforeStartReturns(t *testing.T) {
	m, root := newManager(t)
	other := make(chan *Store, 1)
	var atStart Job
	var atStartErr error
	run := func(ctx context.Context, j Job, out io.Writer, started func(int)) End {
		// Another process looking now sees the job, queued: it was
		// written before its process exists.
		s, err := Open(context.Background(), filepath.Join(root, DefaultPath), filepath.Join(root, DefaultLogDir))
		if err != nil {
			atStartErr = err
			return End{Err: err.Error()}
		}
		other <- s
		list, err := s.List(context.Background())
		if err != nil || len(list) != 1 {
			atStartErr = errors.Join(err, errors.New("want one job listed"))
		} else {
			atStart = list[0]
		}
		return process("sleep 0.2")(ctx, j, out, started)
	}
	j, dup, err := m.Start(t.Context(), spec("sleep 0.2"), run)
	if err != nil || dup {
		t.Fatalf("Start = %+v, dup %v, %v", j, dup, err)
	}
	s := <-other
	defer s.Close()
	if atStartErr != nil {
		t.Fatal(atStartErr)
	}
	if atStart.ID != j.ID || atStart.Status != Queued || atStart.DedupeKey == "" || atStart.Tool != "run_command" || atStart.Created.IsZero() {
		t.Errorf("before its start the job was recorded as %+v, want queued with its key", atStart)
	}
	// When Start returns (the model is told), the row says running.
	got, err := s.Get(t.Context(), j.ID)
	if err != nil || got.Status != Running || got.Attempts != 1 || got.PID == 0 || got.Started.IsZero() {
		t.Errorf("after Start the job is recorded as %+v, %v; want running, one attempt, its pid", got, err)
	}
	if got.OwnerPID != os.Getpid() || got.OwnerStart == 0 {
		t.Errorf("owner = %d/%d, want this process with its start time", got.OwnerPID, got.OwnerStart)
	}
}

func TestConcurrentStartsOfOneCommandMakeOneJob(t *testing.T) {
	m, root := newManager(t)
	// A second manager on its own connections stands for another agent
	// process of the same project (same pid here, so its owner lives).
	m2 := NewManager(Options{Path: filepath.Join(root, DefaultPath), LogDir: filepath.Join(root, DefaultLogDir), Prepare: func() error { return os.MkdirAll(filepath.Join(root, ".agent"), 0o755) }})
	defer m2.Close()
	const n = 8
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		ids  = map[int64]int{}
		dups int
	)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mgr := m
			if i%2 == 1 {
				mgr = m2
			}
			j, dup, err := mgr.Start(context.Background(), spec("sleep 5"), process("sleep 5"))
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			ids[j.ID]++
			if dup {
				dups++
			}
		}()
	}
	wg.Wait()
	if len(ids) != 1 || dups != n-1 {
		t.Fatalf("%d starts gave jobs %v with %d duplicates; want one job and %d duplicates", n, ids, dups, n-1)
	}
	list, err := openStore(t, root).List(t.Context())
	if err != nil || len(list) != 1 {
		t.Fatalf("recorded %d jobs (%v), want 1", len(list), err)
	}
}

func TestSameCommandAfterTheEndIsANewJob(t *testing.T) {
	m, _ := newManager(t)
	first, _, err := m.Start(t.Context(), spec("true"), process("true"))
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the first job's end", func() bool { j, _ := m.Get(t.Context(), first.ID); return j.Status == Done })
	second, dup, err := m.Start(t.Context(), spec("true"), process("true"))
	if err != nil || dup || second.ID == first.ID {
		t.Errorf("second start = job %d dup %v (%v), want a new job after %d ended", second.ID, dup, err, first.ID)
	}
}

func TestDedupeKeyIsToolArgumentsAndFolder(t *testing.T) {
	base := spec("go test ./...")
	same := Spec{Tool: base.Tool, Args: map[string]string{"command": "go test ./..."}, Dir: base.Dir, Label: "other label"}
	if base.DedupeKey() != same.DedupeKey() {
		t.Error("the same tool, arguments and folder give different keys")
	}
	for name, s := range map[string]Spec{
		"other command": spec("go test ./x"),
		"other folder":  {Tool: base.Tool, Args: base.Args, Dir: "/elsewhere"},
		"other tool":    {Tool: "other", Args: base.Args, Dir: base.Dir},
	} {
		if s.DedupeKey() == base.DedupeKey() {
			t.Errorf("%s: same key as the original", name)
		}
	}
}

// deadProcess is a process that ran and ended (its pid and start time).
func deadProcess(t *testing.T) Process {
	t.Helper()
	cmd := exec.Command("sleep", "10")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := ProcessOf(cmd.Process.Pid)
	if !p.Alive() || p.Start == 0 {
		t.Fatalf("process %+v is not seen alive", p)
	}
	cmd.Process.Kill()
	cmd.Wait()
	if p.Alive() {
		t.Fatalf("process %+v still seen alive after its end", p)
	}
	return p
}

func TestJobsOfADeadAgentAreLostAtTheNextOpen(t *testing.T) {
	root := t.TempDir()
	os.Mkdir(filepath.Join(root, ".agent"), 0o755)
	s := openStore(t, root)
	dead := deadProcess(t)
	gone, _, err := s.Enqueue(t.Context(), spec("make serve"), dead, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := s.MarkRunning(t.Context(), gone.ID, dead, time.Now()); err != nil {
		t.Fatal(err)
	}
	alive, _, err := s.Enqueue(t.Context(), spec("make watch"), Self(), time.Now())
	if err != nil {
		t.Fatal(err)
	}

	s2 := openStore(t, root) // the next agent's start
	j, _ := s2.Get(t.Context(), gone.ID)
	if j.Status != Lost || j.Finished.IsZero() || !strings.Contains(j.LastError, "ended without recording") {
		t.Errorf("job of a dead agent = %s (%q), want lost with the reason", j.Status, j.LastError)
	}
	if j, _ := s2.Get(t.Context(), alive.ID); j.Status != Queued {
		t.Errorf("job of a live agent = %s, want it left queued", j.Status)
	}
	// Its command can start again: the lost job is no duplicate.
	if _, dup, err := s2.Enqueue(t.Context(), spec("make serve"), Self(), time.Now()); err != nil || dup {
		t.Errorf("restart of a lost job: dup %v, %v; want a new job", dup, err)
	}
}

func TestADuplicateOfAJobWhoseAgentDiedIsANewJob(t *testing.T) {
	root := t.TempDir()
	os.Mkdir(filepath.Join(root, ".agent"), 0o755)
	s := openStore(t, root)
	old, _, err := s.Enqueue(t.Context(), spec("make serve"), deadProcess(t), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	j, dup, err := s.Enqueue(t.Context(), spec("make serve"), Self(), time.Now())
	if err != nil || dup || j.ID == old.ID {
		t.Fatalf("Enqueue = job %d dup %v (%v), want a new job", j.ID, dup, err)
	}
	if o, _ := s.Get(t.Context(), old.ID); o.Status != Lost {
		t.Errorf("the dead agent's job = %s, want lost", o.Status)
	}
}

func TestOpenRefusesWhatIsNotItsDatabase(t *testing.T) {
	root := t.TempDir()
	agentDir := filepath.Join(root, ".agent")
	os.Mkdir(agentDir, 0o755)
	path := filepath.Join(agentDir, "jobs.db")
	os.WriteFile(path, []byte("not a database at all, just text\n"), 0o644)
	if _, err := Open(t.Context(), path, filepath.Join(agentDir, "jobs")); !errors.Is(err, ErrForeign) {
		t.Errorf("Open(text file) = %v, want ErrForeign", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "not a database at all, just text\n" {
		t.Errorf("the file was changed: %q", b)
	}

	// A link planted in a cloned project is not followed.
	os.Remove(path)
	target := filepath.Join(t.TempDir(), "elsewhere.db")
	os.Symlink(target, path)
	if _, err := Open(t.Context(), path, filepath.Join(agentDir, "jobs")); err == nil || !strings.Contains(err.Error(), "symlink") {
		t.Errorf("Open(symlink) = %v, want a refusal", err)
	}
	if _, err := os.Lstat(target); err == nil {
		t.Error("the link's target was created")
	}
}

func TestFilesArePrivate(t *testing.T) {
	m, root := newManager(t)
	j, _, err := m.Start(t.Context(), spec("echo hi"), process("echo hi"))
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the job's end", func() bool { j, _ = m.Get(t.Context(), j.ID); return !j.Status.Active() })
	for p, want := range map[string]os.FileMode{
		DefaultPath:                   0o600,
		DefaultPath + "-wal":          0o600,
		DefaultLogDir:                 0o700 | os.ModeDir,
		DefaultLogDir + "/" + "1.log": 0o600,
	} {
		fi, err := os.Stat(filepath.Join(root, p))
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		if fi.Mode() != want {
			t.Errorf("%s mode = %v, want %v", p, fi.Mode(), want)
		}
	}
}

func TestOldEndedJobsArePrunedWithTheirLogs(t *testing.T) {
	root := t.TempDir()
	os.Mkdir(filepath.Join(root, ".agent"), 0o755)
	os.Mkdir(filepath.Join(root, DefaultLogDir), 0o700)
	s := openStore(t, root)
	for i := range keepEnded + 3 {
		j, _, err := s.Enqueue(t.Context(), spec("echo "+strings.Repeat("x", i)), Self(), time.Now())
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(s.LogPath(j.ID), []byte("out\n"), 0o600)
		if _, err := s.Finish(t.Context(), j.ID, End{HasExit: true}, "", time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	s2 := openStore(t, root)
	list, _ := s2.List(t.Context())
	if len(list) != keepEnded || list[0].ID != 4 {
		t.Fatalf("after pruning: %d jobs from id %d, want %d from id 4", len(list), list[0].ID, keepEnded)
	}
	for id := int64(1); id <= 3; id++ {
		if _, err := os.Stat(s2.LogPath(id)); err == nil {
			t.Errorf("log of pruned job %d is still there", id)
		}
	}
	if _, err := os.Stat(s2.LogPath(4)); err != nil {
		t.Errorf("log of a kept job: %v", err)
	}
}

// Two agents starting their first job at once both create the database:
// switching it to WAL must wait for the other, not fail.
func TestOpensOfANewDatabaseAtOnceAllSucceed(t *testing.T) {
	for range 10 {
		root := t.TempDir()
		os.Mkdir(filepath.Join(root, ".agent"), 0o755)
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s, err := Open(context.Background(), filepath.Join(root, DefaultPath), filepath.Join(root, DefaultLogDir))
				if err != nil {
					t.Error(err)
					return
				}
				s.Close()
			}()
		}
		wg.Wait()
	}
}
