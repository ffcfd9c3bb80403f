package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/conversation"
	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/llm/llmtest"
	"github.com/agentcli/agent/tools"
)

// runHarness runs `agent run` in-process against a scripted model and a
// small registry over a temporary project.
type runHarness struct {
	t        *testing.T
	dir      string
	model    *llmtest.Script
	stdin    string
	stdinTTY bool
	// stdoutTTY makes stdout look like a terminal.
	stdoutTTY bool
	// stderrTTY and openTTY stand for a controlling terminal.
	stderrTTY bool
	openTTY   func() (io.ReadWriteCloser, error)
	// extra are tools beside read_file and write_file.
	extra []tools.Tool
}

func newRunHarness(t *testing.T, replies ...string) *runHarness {
	return &runHarness{t: t, dir: t.TempDir(), model: llmtest.Texts(replies...)}
}

type readFileArgs struct {
	FilePath string `json:"file_path"`
}

type writeFileArgs struct {
	FilePath string `json:"file_path"`
	Content  string `json:"content" verbatim:"true"`
}

func (h *runHarness) registry() *tools.Registry {
	read := tools.New("read_file", "Read a file.", func(_ context.Context, a readFileArgs) (tools.Result, error) {
		b, err := os.ReadFile(filepath.Join(h.dir, a.FilePath))
		if err != nil {
			return tools.Errorf(tools.CodeFileNotFound, "file not found: %s", a.FilePath), nil
		}
		return tools.Result{Message: "read " + a.FilePath, Content: string(b)}, nil
	})
	write := tools.New("write_file", "Write a file.", func(_ context.Context, a writeFileArgs) (tools.Result, error) {
		if err := os.WriteFile(filepath.Join(h.dir, a.FilePath), []byte(a.Content), 0o644); err != nil {
			return tools.Result{}, err
		}
		return tools.Result{Message: "wrote " + a.FilePath, Changed: []string{a.FilePath}}, nil
	}, tools.Writes())
	return tools.NewRegistry(append([]tools.Tool{read, write}, h.extra...)...)
}

// run executes `agent run args...` with --dir set to the project and
// returns stdout, stderr and the exit code.
func (h *runHarness) run(args ...string) (string, string, int) {
	h.t.Helper()
	return h.runContext(h.t.Context(), args...)
}

// runContext is run with the given context.
func (h *runHarness) runContext(ctx context.Context, args ...string) (string, string, int) {
	h.t.Helper()
	var out, errOut bytes.Buffer
	io := &streams{In: strings.NewReader(h.stdin), Out: &out, ErrOut: &errOut, stdinTTY: h.stdinTTY, stdoutTTY: h.stdoutTTY, stderrTTY: h.stderrTTY, openTTY: h.openTTY}
	d := newFactory(io)
	d.newModel = func(context.Context, config.Config) (llm.Model, error) { return h.model, nil }
	d.newTools = func(context.Context, conversation.ToolInput) (*conversation.ToolSet, error) {
		return conversation.NewToolSet(h.registry()), nil
	}
	d.env = map[string]string{"GEMINI_API_KEY": "test-key", "XDG_CONFIG_HOME": h.t.TempDir()}
	root := newRootCmd(d)
	root.SetArgs(append([]string{"run", "--dir", h.dir}, args...))
	err := root.ExecuteContext(ctx)
	var ee exitError
	if err != nil && !(errors.As(err, &ee) && ee.err == nil) {
		errOut.WriteString("agent: " + err.Error() + "\n")
	}
	return out.String(), errOut.String(), exitCode(err)
}

func (h *runHarness) write(name, content string) {
	h.t.Helper()
	if err := os.WriteFile(filepath.Join(h.dir, name), []byte(content), 0o644); err != nil {
		h.t.Fatal(err)
	}
}

const (
	readCall  = "Reading.\n<tool_call name=\"read_file\" id=\"1\"><file_path>README.md</file_path></tool_call>"
	writeCall = "<tool_call name=\"write_file\" id=\"2\"><file_path>out.md</file_path><content>new</content></tool_call>"
)

func TestRunUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		name     string
		args     []string
		stdinTTY bool
		want     string
	}{
		{"bad format", []string{"--output-format", "xml", "hi"}, false, "--output-format"},
		{"continue and session", []string{"--continue", "--session", "x", "hi"}, false, "not both"},
		{"yes and never", []string{"--yes", "--approval", "never", "hi"}, false, "--yes"},
		{"bad policy", []string{"--approval", "sometimes", "hi"}, false, "sometimes"},
		{"no prompt on a terminal", nil, true, "give a prompt"},
		{"empty prompt", []string{" "}, false, "empty"},
		{"unknown session", []string{"--session", "nope", "hi"}, false, "no such session"},
		{"continue without sessions", []string{"--continue", "hi"}, false, "no sessions"},
		{"negative limit", []string{"--max-iterations", "-1", "hi"}, false, "1 or more"},
		{"zero limit", []string{"--max-iterations", "0", "hi"}, false, "--max-iterations must be 1 or more, not 0"},
		{"missing folder", []string{"--dir", "/no/such/folder", "hi"}, false, "--dir /no/such/folder: no such folder"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newRunHarness(t, "never asked")
			h.stdinTTY = tc.stdinTTY
			_, errOut, code := h.run(tc.args...)
			if code != exitUsage || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d, stderr %q; want %d mentioning %q", code, errOut, exitUsage, tc.want)
			}
			if len(h.model.Requests()) != 0 {
				t.Errorf("the model was asked despite a usage error")
			}
		})
	}
}

func TestRunTextOutput(t *testing.T) {
	h := newRunHarness(t, readCall+"\n\n", "\n\nThe title is Hello.")
	h.write("README.md", "# Hello\n")
	out, errOut, code := h.run("what is the title?")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// The prose only, each reply set apart by one blank line, the line
	// breaks around the call not piling up.
	if out != "Reading.\n\nThe title is Hello.\n" {
		t.Errorf("stdout = %q, want the prose only", out)
	}
	for _, want := range []string{"→ read_file file_path=README.md", "✓ read_file: read README.md"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if got := h.model.Requests()[0].Messages[0].Text; got != "what is the title?" {
		t.Errorf("prompt sent = %q", got)
	}
}

func TestRunPromptFromStdin(t *testing.T) {
	h := newRunHarness(t, "fine")
	h.stdin = "line one\nline two\n"
	if _, errOut, code := h.run(); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if got := h.model.Requests()[0].Messages[0].Text; got != h.stdin {
		t.Errorf("prompt = %q, want stdin", got)
	}
}

func TestRunJSONOutput(t *testing.T) {
	h := newRunHarness(t, readCall, "Hello.")
	h.write("README.md", "# Hello\n")
	out, errOut, code := h.run("--output-format", "json", "title?")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		SessionID string `json:"session_id"`
		Answer    string `json:"answer"`
		Calls     []struct {
			ID, Tool, Outcome string
			Params            map[string]string
		} `json:"calls"`
		Usage      llm.Usage `json:"usage"`
		Iterations int       `json:"iterations"`
		Stopped    bool      `json:"stopped"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, out)
	}
	if got.Answer != "Hello." || got.SessionID == "" || got.Iterations != 2 || got.Stopped {
		t.Errorf("result = %+v", got)
	}
	if len(got.Calls) != 1 || got.Calls[0].Tool != "read_file" || got.Calls[0].Outcome != "ok" || got.Calls[0].Params["file_path"] != "README.md" {
		t.Errorf("calls = %+v", got.Calls)
	}
	if _, err := os.Stat(filepath.Join(h.dir, ".agent", "sessions", got.SessionID+".jsonl")); err != nil {
		t.Errorf("session log of %s: %v", got.SessionID, err)
	}
}

func TestRunStreamJSONOutput(t *testing.T) {
	h := newRunHarness(t, readCall, "Hello.")
	h.write("README.md", "# Hello\n")
	out, errOut, code := h.run("--output-format", "stream-json", "title?")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var types []string
	for i, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var ev struct{ Type string }
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("line %d is not JSON: %q", i+1, line)
		}
		if len(types) == 0 || types[len(types)-1] != ev.Type {
			types = append(types, ev.Type)
		}
	}
	want := "text call tool_start result text done"
	if strings.Join(types, " ") != want {
		t.Errorf("event types = %v, want %s", types, want)
	}
}

func TestRunStoppedAtMaxIterationsExitsThree(t *testing.T) {
	h := newRunHarness(t, readCall, readCall, readCall)
	h.write("README.md", "x")
	_, errOut, code := h.run("--max-iterations", "2", "loop")
	if code != exitMaxIterations || !strings.Contains(errOut, "stopped after 2 model calls") {
		t.Errorf("exit %d, stderr %q; want 3 and a note", code, errOut)
	}

	h = newRunHarness(t, readCall, readCall)
	h.write("README.md", "x")
	out, _, code := h.run("--max-iterations", "1", "--output-format", "json", "loop")
	if code != exitMaxIterations || !strings.Contains(out, `"stopped": true`) {
		t.Errorf("json mode: exit %d, stdout %s", code, out)
	}
}

func TestRunWritesNeedApprovalWithoutATerminal(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		wrote bool
	}{
		{nil, false},
		{[]string{"--approval", "never"}, false},
		{[]string{"--yes"}, true},
		{[]string{"--approval", "auto"}, true},
	} {
		h := newRunHarness(t, writeCall, "done")
		out, errOut, code := h.run(append(tc.args, "--output-format", "json", "write")...)
		// Refused by the policy: exit 4 and a note naming --yes.
		if want := map[bool]int{true: exitOK, false: exitRefused}[tc.wrote]; code != want {
			t.Fatalf("%v: exit %d, want %d: %s", tc.args, code, want, errOut)
		}
		if !tc.wrote && !strings.Contains(errOut, "rerun with --yes") {
			t.Errorf("%v: stderr lacks the --yes note: %q", tc.args, errOut)
		}
		_, err := os.Stat(filepath.Join(h.dir, "out.md"))
		if (err == nil) != tc.wrote {
			t.Errorf("%v: file written = %v, want %v", tc.args, err == nil, tc.wrote)
		}
		if !tc.wrote && !strings.Contains(out, "TOOL_POLICY_DENIED") {
			t.Errorf("%v: output lacks the denial: %s", tc.args, out)
		}
	}
	h := newRunHarness(t, writeCall, "done")
	h.run("write")
	if turn := h.model.Requests()[1].Messages[2].Text; !strings.Contains(turn, "--yes") {
		t.Errorf("the model was not told to ask for --yes:\n%s", turn)
	}
}

func TestRunContinueResumesTheLastConversation(t *testing.T) {
	h := newRunHarness(t, "first answer")
	if _, errOut, code := h.run("first question"); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	h.model = llmtest.Texts("second answer")
	if _, errOut, code := h.run("--continue", "second question"); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	msgs := h.model.Requests()[0].Messages
	if len(msgs) != 3 || msgs[0].Text != "first question" || msgs[1].Text != "first answer" || msgs[2].Text != "second question" {
		t.Errorf("resumed conversation = %+v", msgs)
	}
	entries, _ := os.ReadDir(filepath.Join(h.dir, ".agent", "sessions"))
	if len(entries) != 1 {
		t.Errorf("sessions = %d, want the one continued", len(entries))
	}
}

func TestRunProviderFailureExitsOne(t *testing.T) {
	h := newRunHarness(t)
	h.model = llmtest.NewScript(llmtest.Reply{Err: errors.New("gemini rejected the API key (401): check GEMINI_API_KEY")})
	_, errOut, code := h.run("hi")
	if code != exitFailed || !strings.Contains(errOut, "GEMINI_API_KEY") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

func TestRunAsksOnATerminal(t *testing.T) {
	two := writeCall + "\n<tool_call name=\"write_file\" id=\"3\"><file_path>two.md</file_path><content>2</content></tool_call>"
	for _, tc := range []struct {
		answer string
		wrote  []bool
	}{
		{"y\nn\n", []bool{true, false}},
		{"a\n", []bool{true, true}},
		{"n\ny\n", []bool{false, true}},        // a person's no is not a failure: the next write is asked
		{"maybe\ny\nn\n", []bool{true, false}}, // a typo is asked again
		{"", []bool{false, false}},             // end of input denies
	} {
		h := newRunHarness(t, two, "done")
		h.stdinTTY, h.stderrTTY = true, true
		h.stdin = tc.answer
		_, errOut, code := h.run("write")
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", tc.answer, code, errOut)
		}
		if !strings.Contains(errOut, "allow write_file file_path=out.md content=new? [y/N/a]") {
			t.Errorf("%q: no question on stderr:\n%s", tc.answer, errOut)
		}
		for i, name := range []string{"out.md", "two.md"} {
			_, err := os.Stat(filepath.Join(h.dir, name))
			if (err == nil) != tc.wrote[i] {
				t.Errorf("%q: %s written = %v, want %v", tc.answer, name, err == nil, tc.wrote[i])
			}
		}
	}
}

func TestRunSessionResumesAGivenConversation(t *testing.T) {
	h := newRunHarness(t, "one")
	out, _, code := h.run("--output-format", "json", "first")
	if code != 0 {
		t.Fatal(code)
	}
	var first struct {
		SessionID string `json:"session_id"`
	}
	if err := json.Unmarshal([]byte(out), &first); err != nil {
		t.Fatal(err)
	}
	h.model = llmtest.Texts("two")
	if _, _, code := h.run("second"); code != 0 { // a new session
		t.Fatal(code)
	}
	h.model = llmtest.Texts("three")
	if _, errOut, code := h.run("--session", first.SessionID, "third"); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	msgs := h.model.Requests()[0].Messages
	if len(msgs) != 3 || msgs[0].Text != "first" || msgs[2].Text != "third" {
		t.Errorf("conversation = %+v, want the first session continued", msgs)
	}
}

func TestRunJSONReportsSetupFailures(t *testing.T) {
	for _, format := range []string{"json", "stream-json"} {
		h := newRunHarness(t)
		out, _, code := h.run("--output-format", format, "--session", "missing", "hi")
		if code != exitUsage {
			t.Errorf("%s: exit %d, want %d", format, code, exitUsage)
		}
		// The first value: the object, or stream-json's error event
		// (a done event follows it).
		var got struct{ Error, Type string }
		if err := json.NewDecoder(strings.NewReader(out)).Decode(&got); err != nil || !strings.Contains(got.Error, "no such session") {
			t.Errorf("%s: stdout = %q, want a JSON error", format, out)
		}
	}
	h := newRunHarness(t)
	if out, _, _ := h.run("--session", "missing", "hi"); out != "" {
		t.Errorf("text: stdout = %q, want nothing", out)
	}
}

func TestRunTruncatedAnswerExitsZeroWithANote(t *testing.T) {
	h := newRunHarness(t)
	h.model = llmtest.NewScript(llmtest.Reply{Text: "The answer is cut", Finish: "length"})
	_, errOut, code := h.run("hi")
	if code != exitOK || !strings.Contains(errOut, "cut off by the model's output limit") {
		t.Errorf("text: exit %d, stderr %q", code, errOut)
	}
	h.model = llmtest.NewScript(llmtest.Reply{Text: "The answer is cut", Finish: "length"})
	out, _, code := h.run("--output-format", "json", "hi")
	if code != exitOK || !strings.Contains(out, `"truncated": true`) {
		t.Errorf("json: exit %d, stdout %s", code, out)
	}
	h.model = llmtest.Texts("whole")
	out, _, _ = h.run("--output-format", "json", "hi")
	if !strings.Contains(out, `"truncated": false`) {
		t.Errorf("json of a whole answer: %s", out)
	}
}

func TestRunWhitespaceReplyIsEmpty(t *testing.T) {
	h := newRunHarness(t, " \n\t\n")
	_, errOut, code := h.run("hi")
	if code != exitFailed || !strings.Contains(errOut, "empty") {
		t.Errorf("exit %d, stderr %q; want 1 and an empty-reply error", code, errOut)
	}
}

func TestRunInterruptedExits130(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	h := newRunHarness(t)
	h.model = llmtest.NewScript(llmtest.Reply{Text: "partial ", Block: true})
	time.AfterFunc(50*time.Millisecond, cancel)
	out, _, code := h.runContext(ctx, "--output-format", "stream-json", "hi")
	if code != exitInterrupted {
		t.Errorf("exit %d, want 130", code)
	}
	if !strings.Contains(out, `"error":"interrupted"`) || strings.Contains(out, "context canceled") {
		t.Errorf("stream-json = %s", out)
	}
}

func TestRunExitPrecedence(t *testing.T) {
	refused := &agent.Outcome{Calls: []agent.CallResult{{ByPolicy: true, Result: tools.Result{Code: tools.CodePolicyDenied}}}}
	declined := &agent.Outcome{Calls: []agent.CallResult{{Result: tools.Result{Code: tools.CodePolicyDenied}}}}
	stopped := fmt.Errorf("%w (3)", agent.ErrMaxIterations)
	cancelled, cancel := context.WithCancel(t.Context())
	cancel()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		out  *agent.Outcome
		err  error
		want int
	}{
		{"ok", t.Context(), declined, nil, exitOK},
		{"refused", t.Context(), refused, nil, exitRefused},
		{"refused and stopped", t.Context(), refused, stopped, exitRefused},
		{"stopped", t.Context(), declined, stopped, exitMaxIterations},
		{"failed and refused", t.Context(), refused, errors.New("boom"), exitFailed},
		{"usage and refused", t.Context(), refused, usageErrorf("bad"), exitUsage},
		{"interrupted and failed", cancelled, refused, errors.New("boom"), exitInterrupted},
	} {
		if got := exitCode(runExit(tc.ctx, tc.out, tc.err, io.Discard)); got != tc.want {
			t.Errorf("%s: exit %d, want %d", tc.name, got, tc.want)
		}
	}
}

// TestRunHaltExitsOne: a call whose result stops the turn (the git
// guard could not check every folder) ends agent run with exit 1 and
// its reason on stderr, in the summary's warnings and in stream-json's
// error event; the model is asked nothing more.
func TestRunHaltExitsOne(t *testing.T) {
	const why = "not all of the project was checked for git repositories the command may have planted (node_modules/ (3 unread folders and all below))"
	halting := tools.New("check", "Check.", func(context.Context, struct{}) (tools.Result, error) {
		return tools.Result{Message: "checked", Content: "Warning: " + why + ".", Alerts: []string{why}, Halt: why}, nil
	})
	for _, format := range []string{"text", "stream-json"} {
		h := newRunHarness(t, `<tool_call name="check" id="1"></tool_call>`, "Never asked.")
		h.extra = []tools.Tool{halting}
		out, errOut, code := h.run("--output-format", format, "go")
		if code != exitFailed {
			t.Errorf("%s: exit %d, want 1\n%s", format, code, errOut)
		}
		if n := len(h.model.Requests()); n != 1 {
			t.Errorf("%s: %d requests, want 1", format, n)
		}
		switch format {
		case "text":
			if !strings.Contains(errOut, "  ! "+why) || !strings.Contains(errOut, "agent: warning: "+why) {
				t.Errorf("the activity line and the summary do not warn: %s", errOut)
			}
			if !strings.Contains(errOut, "check stopped the turn: "+why) {
				t.Errorf("stderr does not say why the run stopped: %s", errOut)
			}
		case "stream-json":
			if !strings.Contains(out, `"alerts":["`+why) {
				t.Errorf("stream-json's result event does not warn: %s", out)
			}
			if !strings.Contains(out, `{"type":"error"`) || !strings.Contains(out, "check stopped the turn: "+why) {
				t.Errorf("stream-json has no error event saying why: %s", out)
			}
		}
	}
}
