//go:build unix

package fsedit

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/sandbox"
)

// Two versions of a 1 MB file that differ in a block of lines in the
// middle: the child turns A into B with a rewrite and B back into A with
// a partial write, over and over. A megabyte is four of the temp file's
// write buffers: the bulk copy is the same code for each buffer, and a
// smaller file puts more of the random kills into the steps where
// atomicity is at stake (sync, rename, the backup manifest), at a fifth
// of the time per kill.
const (
	crashLines      = 23000 // 1 MB
	crashBlockStart = 8001
	crashBlockEnd   = 14000
)

func crashContent(version string) string {
	var b strings.Builder
	for i := 1; i <= crashLines; i++ {
		v := "a"
		if i >= crashBlockStart && i <= crashBlockEnd {
			v = version
		}
		fmt.Fprintf(&b, "line %06d version %s: some text to fill up\n", i, v)
	}
	return b.String()
}

func crashBlock(version string) string {
	lines := strings.SplitAfter(crashContent(version), "\n")
	return strings.Join(lines[crashBlockStart-1:crashBlockEnd], "")
}

// crashChild rewrites the file forever, until the parent kills it. It
// prints "ready" once it is about to write, then each write's duration
// in milliseconds.
func crashChild() {
	dir := os.Getenv("FSEDIT_DIR")
	b, err1 := os.ReadFile(os.Getenv("FSEDIT_B"))
	blockA, err2 := os.ReadFile(os.Getenv("FSEDIT_BLOCK_A"))
	if err1 != nil || err2 != nil {
		fmt.Fprintln(os.Stderr, "child:", err1, err2)
		os.Exit(3)
	}
	root := sandbox.NewRoot(dir, sandbox.Options{BackupMaxBytes: 40 << 20, MaxReadBytes: 64 << 20})
	reg := tools.NewRegistry(NewSession(root).Tools()...)
	ctx := context.Background()
	must := func(res tools.Result, err error) {
		if err != nil || res.IsError() {
			fmt.Fprintf(os.Stderr, "child: %v %s %s\n", err, res.Code, res.Message)
			os.Exit(3)
		}
	}
	must(reg.Call(ctx, "read_file", map[string]string{"file_path": "big.txt"})) // whole: the loop rewrites it
	root.Backups()                                                              // prune now, not inside the first timed write
	fmt.Println("ready")
	for {
		t0 := time.Now()
		cur, _ := os.ReadFile(filepath.Join(dir, "big.txt"))
		if bytes.Contains(cur, []byte("version b")) {
			must(reg.Call(ctx, "write_file", map[string]string{"operation_type": "partial", "file_path": "big.txt",
				"content": string(blockA), "start_line": fmt.Sprint(crashBlockStart), "end_line": fmt.Sprint(crashBlockEnd)}))
		} else {
			must(reg.Call(ctx, "write_file", map[string]string{"operation_type": "rewrite", "file_path": "big.txt", "content": string(b)}))
		}
		fmt.Println(time.Since(t0).Milliseconds())
	}
}

// TestCrashDuringWrite kills a child process at random moments while it
// rewrites a 1 MB file, and checks after every kill that the file is
// exactly one of the two versions and the newest backup is intact.
func TestCrashDuringWrite(t *testing.T) {
	kills := 220
	if testing.Short() {
		kills = 20
	}
	dir := t.TempDir()
	a, b := crashContent("a"), crashContent("b")
	sumA, sumB := sha256.Sum256([]byte(a)), sha256.Sum256([]byte(b))
	writeFile(t, filepath.Join(dir, "big.txt"), a)
	root := sandbox.NewRoot(dir, sandbox.Options{BackupMaxBytes: -1})
	defer root.Close()

	aux := t.TempDir()
	writeFile(t, filepath.Join(aux, "b"), b)
	writeFile(t, filepath.Join(aux, "blockA"), crashBlock("a"))

	// Kill at a random moment within about one and a half writes after
	// the child is ready, so most kills land inside a write whatever the
	// speed of the machine.
	rng := rand.New(rand.NewPCG(1, 2))
	avg := 100 * time.Millisecond
	var progressed int
	for i := range kills {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), childEnv+"=crash", "FSEDIT_DIR="+dir,
			"FSEDIT_B="+filepath.Join(aux, "b"), "FSEDIT_BLOCK_A="+filepath.Join(aux, "blockA"))
		var errOut bytes.Buffer
		cmd.Stderr = &errOut
		stdout, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := make(chan string, 64)
		go func() {
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				lines <- sc.Text()
			}
			close(lines)
		}()
		if l := <-lines; l != "ready" {
			cmd.Wait()
			t.Fatalf("kill %d: child did not start (%q): %s", i, l, errOut.String())
		}
		time.Sleep(time.Duration(rng.Int64N(int64(avg) * 3 / 2)))
		cmd.Process.Signal(syscall.SIGKILL)
		done := false
		for l := range lines {
			if ms, err := strconv.Atoi(l); err == nil {
				progressed++
				done = true
				avg = (avg*7 + time.Duration(ms)*time.Millisecond) / 8
			}
		}
		if !done {
			// No write finished before the kill: on a slow machine (or
			// under -race) writes take longer than guessed; wait longer.
			avg += avg / 4
		}
		err := cmd.Wait()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != -1 {
			t.Fatalf("kill %d: child ended on its own (%v): %s", i, err, errOut.String())
		}

		got, err := os.ReadFile(filepath.Join(dir, "big.txt"))
		if err != nil {
			t.Fatalf("kill %d: %v", i, err)
		}
		if sum := sha256.Sum256(got); sum != sumA && sum != sumB {
			t.Fatalf("kill %d: file is neither version (%d bytes)", i, len(got))
		}
		checkNewestBackup(t, root, i)
	}
	if progressed < kills/10 {
		t.Errorf("only %d writes completed across %d kills: the kills came too early to test anything", progressed, kills)
	}
	t.Logf("%d kills, %d writes completed, last average write %v", kills, progressed, avg)
	if tf := tempFiles(t, dir); len(tf) > 1 {
		t.Errorf("%d temp files left; stale ones should be cleaned by the next write", len(tf))
	}
}

// checkNewestBackup verifies the last recorded backup: its blob exists and
// holds exactly the content its entry says it had.
func checkNewestBackup(t *testing.T, root *sandbox.Root, kill int) {
	t.Helper()
	st, err := root.Backups()
	if err != nil {
		t.Fatal(err)
	}
	es, err := st.Entries()
	if err != nil {
		t.Fatalf("kill %d: manifest unreadable: %v", kill, err)
	}
	if len(es) == 0 {
		return
	}
	e := es[len(es)-1]
	f, err := st.OpenBlob(e)
	if err != nil {
		t.Fatalf("kill %d: backup of the last write missing: %v", kill, err)
	}
	defer f.Close()
	h := sha256.New()
	io.Copy(h, f)
	if got := hex.EncodeToString(h.Sum(nil)); got != e.SHA256Before {
		t.Fatalf("kill %d: backup %s is damaged", kill, e.Blob)
	}
}
