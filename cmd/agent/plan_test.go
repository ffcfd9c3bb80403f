package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent/llm/llmtest"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/ask"
)

// runAgainst runs `agent` in-process with args, the real tool set, no
// terminal, and the provider pointed at srv (a fake on 127.0.0.1): stdout,
// stderr and the exit code.
func runAgainst(t *testing.T, srv *llmtest.Server, dir string, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	d := newFactory(&streams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut})
	d.env = map[string]string{"HOME": t.TempDir(), "XDG_CONFIG_HOME": t.TempDir(), "PATH": os.Getenv("PATH")}
	for _, kv := range srv.Env() {
		k, v, _ := strings.Cut(kv, "=")
		d.env[k] = v
	}
	root := newRootCmd(d)
	root.SetArgs(append([]string{"run", "--dir", dir}, args...))
	err := root.ExecuteContext(t.Context())
	return out.String(), errOut.String(), exitCode(err)
}

func todoCall(id, todos string) string {
	return `<tool_call name="todo_write" id="` + id + `"><todos>` + "\n" + todos + `</todos></tool_call>`
}

// TestRunStreamsThePlan: a model that writes its plan twice gives two
// todo events in stream-json, each with the steps and their statuses;
// the text output prints the plan on stderr each time it changes.
func TestRunStreamsThePlan(t *testing.T) {
	answers := []llmtest.Answer{
		llmtest.Say("Planning.\n" + todoCall("1", "- [>] Read the code\n- [ ] Write the tests\n- [ ] Rewrite in Rust\n")),
		llmtest.Say(todoCall("2", "- [x] Read the code\n- [>] Write the tests\n- [-] Rewrite in Rust\n")),
		llmtest.Say("Done."),
	}
	srv := llmtest.NewGeminiServer(t, answers...)
	out, errOut, code := runAgainst(t, srv, t.TempDir(), "--output-format", "stream-json", "test it")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var plans []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var ev struct {
			Type  string
			Items []struct{ Text, Status string }
		}
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("not JSON: %q", line)
		}
		if ev.Type == "notification" {
			t.Errorf("stream-json carries the bell's notification: %s", line)
		}
		if ev.Type != "todo" {
			continue
		}
		var steps []string
		for _, it := range ev.Items {
			steps = append(steps, it.Text+"="+it.Status)
		}
		plans = append(plans, strings.Join(steps, ", "))
	}
	want := []string{
		"Read the code=in_progress, Write the tests=pending, Rewrite in Rust=pending",
		"Read the code=completed, Write the tests=in_progress, Rewrite in Rust=cancelled",
	}
	if strings.Join(plans, "\n") != strings.Join(want, "\n") {
		t.Errorf("todo events:\n%s\nwant:\n%s", strings.Join(plans, "\n"), strings.Join(want, "\n"))
	}

	srv = llmtest.NewGeminiServer(t, answers...)
	out, errOut, code = runAgainst(t, srv, t.TempDir(), "test it")
	wantErr := "plan (1 of 2 done):\n  ✓ Read the code\n  ▶ Write the tests\n  – Rewrite in Rust\n"
	if code != exitOK || out != "Planning.\n\nDone.\n" || !strings.Contains(errOut, "plan (0 of 3 done):\n  ▶ Read the code\n  ○ Write the tests\n") || !strings.Contains(errOut, wantErr) {
		t.Errorf("text output: exit %d, stdout %q, stderr:\n%s", code, out, errOut)
	}
}

// TestRunAsksNobodyWithoutATerminal: ask_user in a run with no terminal
// is answered at once, --yes or not, with the refusal that tells the
// model to decide and say what it assumed; the run goes on to its answer.
func TestRunAsksNobodyWithoutATerminal(t *testing.T) {
	call := `<tool_call name="ask_user" id="1"><question>Which database?</question><options>PostgreSQL
SQLite</options></tool_call>`
	for _, args := range [][]string{{"pick a database"}, {"--yes", "pick a database"}} {
		srv := llmtest.NewGeminiServer(t, llmtest.Say(call), llmtest.Say("I assumed SQLite."))
		out, errOut, code := runAgainst(t, srv, t.TempDir(), args...)
		if code != exitOK || out != "I assumed SQLite.\n" {
			t.Fatalf("%v: exit %d, stdout %q: %s", args, code, out, errOut)
		}
		reqs := srv.Requests()
		if len(reqs) != 2 || !strings.Contains(reqs[1].LastUser(), ask.NoOneToAnswer) {
			t.Errorf("%v: the model was not told that nobody can answer:\n%s", args, reqs[len(reqs)-1].LastUser())
		}
	}
}

// TestRunAsksTheTerminal: with a terminal, ask_user puts the question
// and its numbered options there, --yes or not, and the model gets the
// option chosen by its number, or the person's own words.
func TestRunAsksTheTerminal(t *testing.T) {
	call := `<tool_call name="ask_user" id="1"><question>Which database?</question><options>PostgreSQL
SQLite</options></tool_call>`
	for _, c := range []struct {
		typed, want string
		args        []string
	}{
		{"5\n2\n", `the user chose "SQLite"`, []string{"--yes", "pick"}},
		{"whichever is smaller\n", "whichever is smaller", []string{"pick"}},
		{"\n", "the user declined to answer", []string{"pick"}},
	} {
		h := newRunHarness(t, call, "ok")
		h.extra = []tools.Tool{ask.New()}
		tty := &ttyAnswer{Reader: strings.NewReader(c.typed)}
		h.openTTY = func() (io.ReadWriteCloser, error) { return tty, nil }
		_, errOut, code := h.run(c.args...)
		if code != exitOK {
			t.Fatalf("%q: exit %d: %s", c.typed, code, errOut)
		}
		shown := tty.String()
		if !strings.Contains(shown, "? Which database?\n  1  PostgreSQL\n  2  SQLite\n") {
			t.Errorf("%q: the terminal showed:\n%s", c.typed, shown)
		}
		if c.typed == "5\n2\n" && !strings.Contains(shown, "please answer with one number from 1 to 2") {
			t.Errorf("a number out of range was not asked again:\n%s", shown)
		}
		if got := h.model.Requests()[1].Messages[2].Text; !strings.Contains(got, c.want) {
			t.Errorf("%q: the model got:\n%s\nwant %q", c.typed, got, c.want)
		}
	}
}
