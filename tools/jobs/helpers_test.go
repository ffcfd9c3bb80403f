package jobs

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// newManager is a Manager over a database in a fresh project folder,
// closed with the test.
func newManager(t *testing.T) (*Manager, string) {
	t.Helper()
	root := t.TempDir()
	m := NewManager(Options{Path: filepath.Join(root, DefaultPath), LogDir: filepath.Join(root, DefaultLogDir), Prepare: func() error {
		return os.MkdirAll(filepath.Join(root, ".agent"), 0o755)
	}})
	t.Cleanup(func() { m.Close() })
	return m, root
}

// openStore opens a second handle on root's database, as another process
// would.
func openStore(t *testing.T, root string) *Store {
	t.Helper()
	s, err := Open(t.Context(), filepath.Join(root, DefaultPath), filepath.Join(root, DefaultLogDir))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func spec(cmd string) Spec {
	return Spec{Tool: "run_command", Args: map[string]string{"command": cmd}, Dir: "/project", Label: cmd}
}

// process is a Runner over a real child process (sh -c script): it
// reports the pid, copies the output and stops the process when ctx
// ends, as package shell's does, without a sandbox.
func process(script string) Runner {
	return func(ctx context.Context, j Job, out io.Writer, started func(int)) End {
		cmd := exec.Command("/bin/sh", "-c", script)
		cmd.Env = append(os.Environ(), j.Mark())
		cmd.Stdout, cmd.Stderr = out, out
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Start(); err != nil {
			return End{Err: err.Error()}
		}
		started(cmd.Process.Pid)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-ctx.Done():
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
		code := cmd.ProcessState.ExitCode()
		return End{ExitCode: code, HasExit: code >= 0, Summary: "exit code " + strconv.Itoa(code), Tail: tailOf(out)}
	}
}

// tailOf reads back what a log holds, for the End's tail.
func tailOf(w io.Writer) string {
	l := w.(*logFile)
	c, _ := readLog(l.path, l.dropped, -1, 4096)
	return string(c.Text)
}

// waitFor polls cond for up to 10s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}
