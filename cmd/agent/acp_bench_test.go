package main

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentcli/agent/agent/llm/llmtest"
)

// BenchmarkACPFirstUpdate measures how soon an editor hears from `agent
// acp`: a fresh process in a 31-file project, from exec to the first
// session/update (the slash commands, sent once session/new is
// answered). It reports per run:
//
//	agent-ms   exec of agent acp to its first update, the client being
//	           this benchmark (initialize and session/new written at once)
//	acpx-ms    exec of acpx, a node client, to the first update it
//	           prints: what a person waits for, node's start included
//
// Run it with
//
//	go test ./cmd/agent -run '^$' -bench ACPFirstUpdate -benchtime 10x
func BenchmarkACPFirstUpdate(b *testing.B) {
	acpx := filepath.Join(acpxBin(b), "acpx")
	bin := filepath.Join(b.TempDir(), "agent")
	build := exec.Command("go", "build", "-ldflags", "-s -w", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("build: %v\n%s", err, out)
	}
	project := benchProject(b)
	// The model is never asked: the clock stops before the prompt.
	srv := llmtest.NewGeminiServer(b)
	env := append([]string{"HOME=" + b.TempDir(), "XDG_CONFIG_HOME=" + filepath.Join(b.TempDir(), "config"), "PATH=" + os.Getenv("PATH")}, srv.Env()...)
	requests := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}
{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"` + project + `","mcpServers":[]}}
`
	var direct, viaACPX []time.Duration
	for b.Loop() {
		direct = append(direct, firstUpdate(b, project, env, strings.NewReader(requests), bin, "acp"))
		viaACPX = append(viaACPX, firstUpdate(b, project, env, nil, acpx, "--agent", bin+" acp", "--approve-all", "--format", "json", "exec", "hello"))
	}
	b.ReportMetric(ms(median(direct)), "agent-ms")
	b.ReportMetric(ms(median(viaACPX)), "acpx-ms")
}

// firstUpdate runs prog with args in dir, input on its stdin, until the
// first session/update line on its stdout, and returns how long that
// took from exec.
func firstUpdate(b *testing.B, dir string, env []string, input io.Reader, prog string, args ...string) time.Duration {
	cmd := exec.Command(prog, args...)
	cmd.Dir, cmd.Env = dir, env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // acpx's agent stops with it
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	start := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	if input != nil {
		if _, err := io.Copy(stdin, input); err != nil {
			b.Fatal(err)
		}
	}
	sc := bufio.NewScanner(stdout)
	sc.Buffer(nil, 1<<20)
	var took time.Duration
	for sc.Scan() {
		if strings.Contains(sc.Text(), `"method":"session/update"`) {
			took = time.Since(start)
			break
		}
	}
	syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
	stdin.Close()
	io.Copy(io.Discard, stdout)
	cmd.Wait()
	if took == 0 {
		b.Fatalf("%s: no session/update (%v)", prog, sc.Err())
	}
	return took
}
