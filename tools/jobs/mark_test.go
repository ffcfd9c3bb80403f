package jobs

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentcli/agent/tools"
)

// A cloned project may ship its own .agent/jobs.db: a row naming a
// process group makes the next start kill only the processes that carry
// the job's mark, never another of that group.
func TestLostJobsLeftoversAreKilledOnlyWithTheirMark(t *testing.T) {
	root := t.TempDir()
	os.Mkdir(filepath.Join(root, ".agent"), 0o755)
	s := openStore(t, root)
	j, _, err := s.Enqueue(t.Context(), spec("serve"), deadProcess(t), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	marked := exec.Command("sleep", "1000")
	marked.Env = append(os.Environ(), j.Mark())
	marked.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := marked.Start(); err != nil {
		t.Fatal(err)
	}
	other := exec.Command("sleep", "1001") // same group, no mark
	other.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pgid: marked.Process.Pid}
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { other.Process.Kill(); other.Wait() }()
	if !j.Marks(marked.Process.Pid) || j.Marks(other.Process.Pid) || (Job{}).Marks(other.Process.Pid) {
		t.Fatal("Marks does not tell the marked process from the other")
	}
	if err := s.MarkRunning(t.Context(), j.ID, ProcessOf(marked.Process.Pid), time.Now()); err != nil {
		t.Fatal(err)
	}
	ended := make(chan error, 1)
	go func() { ended <- marked.Wait() }()

	openStore(t, root) // the next start
	select {
	case <-ended:
	case <-time.After(5 * time.Second):
		t.Error("the marked leftover still runs")
	}
	if !ProcessOf(other.Process.Pid).Alive() {
		t.Error("a process without the job's mark was killed")
	}
}

func TestAPlantedLogLinkIsNeverRead(t *testing.T) {
	m, root := newManager(t)
	secret := filepath.Join(t.TempDir(), "id_rsa")
	os.WriteFile(secret, []byte("PRIVATE KEY\n"), 0o600)
	j, _, err := m.Start(t.Context(), spec("true"), process("true"))
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the job's end", func() bool { g, _ := m.Get(t.Context(), j.ID); return !g.Status.Active() })
	log := filepath.Join(root, DefaultLogDir, "1.log")
	os.Remove(log)
	if err := os.Symlink(secret, log); err != nil {
		t.Fatal(err)
	}
	res, err := tools.NewRegistry(Tools(m)...).Call(t.Context(), "job_output", map[string]string{"job_id": "1"})
	if err != nil || res.Code != tools.CodePolicyDenied || strings.Contains(res.Content+res.Message, "PRIVATE") {
		t.Errorf("job_output over a planted link = %s %q %q, %v; want a refusal without the file", res.Code, res.Message, res.Content, err)
	}
}

func TestAPlantedLinkWhereANewLogGoesIsReplaced(t *testing.T) {
	m, root := newManager(t)
	target := filepath.Join(t.TempDir(), "victim")
	os.WriteFile(target, []byte("keep\n"), 0o600)
	os.MkdirAll(filepath.Join(root, DefaultLogDir), 0o700)
	os.Symlink(target, filepath.Join(root, DefaultLogDir, "1.log"))
	j, _, err := m.Start(t.Context(), spec("echo out"), process("echo out"))
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the job's end", func() bool { g, _ := m.Get(t.Context(), j.ID); return !g.Status.Active() })
	if b, _ := os.ReadFile(target); string(b) != "keep\n" {
		t.Errorf("the link's target was written: %q", b)
	}
	if fi, err := os.Lstat(filepath.Join(root, DefaultLogDir, "1.log")); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("the log is not a regular file: %v", err)
	}
}
