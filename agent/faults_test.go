package agent_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/llm/llmtest"
	"github.com/agentcli/agent/tools"
)

// The fault tests drive the whole loop through each provider's real SDK
// against its fake server, and check what the user is promised whatever
// the network does: the run ends (no hang), a write cut off by the fault
// never touches a file, and the session log stays valid JSON lines.

// provider builds a fake server and a model pointed at it.
type provider struct {
	name      string
	newServer func(t testing.TB, answers ...llmtest.Answer) *llmtest.Server
	newModel  func(t testing.TB, s *llmtest.Server, p llm.Policy) llm.Model
}

// cutWrite is a reply that starts a write and never finishes it: the
// fault arrives in the middle of the file's content.
var cutWrite = []string{"Writing.\n", "<tool_call name=\"write_file\" id=\"1\">", "<file_path>out.md</file_path><content>", "half of the"}

const fullWrite = `<tool_call name="write_file" id="1"><file_path>out.md</file_path><content>whole</content></tool_call>`

type faultCase struct {
	name    string
	answers []llmtest.Answer
	timeout time.Duration // the policy's silence limit; 5s when zero
	// wantErr is a substring of the run's error; "" means the run answers.
	wantErr string
	// wrote is the content out.md must have afterwards; "" means absent.
	wrote string
	// retry is the reason of the first EventRetry the run must emit; ""
	// means none is checked.
	retry string
}

func faultCases() []faultCase {
	return []faultCase{
		{name: "429 with Retry-After then success",
			answers: []llmtest.Answer{llmtest.Fail(429, "Retry-After", "1"), llmtest.Say(fullWrite), llmtest.Say("done")},
			wrote:   "whole", retry: "rate_limited"},
		{name: "500 three times then a clear error",
			answers: []llmtest.Answer{llmtest.Fail(500), llmtest.Fail(500), llmtest.Fail(500)},
			wantErr: "server error (500) after 3 attempts", retry: "server_error"},
		{name: "connection reset mid-write is asked again once",
			answers: []llmtest.Answer{llmtest.Say(cutWrite...).WithFault(llmtest.FaultReset), llmtest.Say("I could not write it.")}},
		{name: "connection reset twice mid-write fails",
			answers: []llmtest.Answer{llmtest.Say(cutWrite...).WithFault(llmtest.FaultReset), llmtest.Say(cutWrite...).WithFault(llmtest.FaultReset)},
			wantErr: "stream dropped"},
		{name: "reset after a complete write keeps it and asks on",
			answers: []llmtest.Answer{llmtest.Say(fullWrite, "\nand more <tool_call name=\"write_file\">").WithFault(llmtest.FaultReset), llmtest.Say("done")},
			wrote:   "whole"},
		{name: "malformed SSE mid-write",
			answers: []llmtest.Answer{llmtest.Say(cutWrite...).WithFault(llmtest.FaultMalformed), llmtest.Say("ok")}},
		{name: "malformed SSE before any text",
			answers: []llmtest.Answer{llmtest.Say().WithFault(llmtest.FaultMalformed), llmtest.Say().WithFault(llmtest.FaultMalformed), llmtest.Say().WithFault(llmtest.FaultMalformed)},
			wantErr: "malformed"},
		{name: "a server slower than the time limit",
			answers: []llmtest.Answer{llmtest.Say("late").WithDelay(time.Minute), llmtest.Say("late").WithDelay(time.Minute), llmtest.Say("late").WithDelay(time.Minute)},
			timeout: 100 * time.Millisecond,
			wantErr: "for 100 ms (model_timeout) after 3 attempts"},
		{name: "a hang before the first byte is asked again",
			answers: []llmtest.Answer{llmtest.Say().WithFault(llmtest.FaultStall), llmtest.Say("ok")},
			timeout: 100 * time.Millisecond},
		{name: "a stream that stalls mid-write",
			answers: []llmtest.Answer{llmtest.Say(strings.Join(cutWrite, "")).WithChunkDelay(time.Minute), llmtest.Say("ok")},
			timeout: 100 * time.Millisecond},
		{name: "401",
			answers: []llmtest.Answer{llmtest.Fail(401)},
			wantErr: "(401): check"},
	}
}

func TestFaults(t *testing.T) {
	for _, p := range providers {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			for _, tc := range faultCases() {
				t.Run(tc.name, func(t *testing.T) {
					t.Parallel()
					runFault(t, p, tc)
				})
			}
		})
	}
}

func runFault(t *testing.T, p provider, tc faultCase) {
	srv := p.newServer(t, tc.answers...)
	timeout := tc.timeout
	if timeout == 0 {
		timeout = 5 * time.Second
	}
	pol := llm.Policy{Timeout: timeout, Sleep: func(ctx context.Context, d time.Duration) error { return ctx.Err() }}
	root := t.TempDir()
	sess := agent.NewSession(root)
	defer sess.Close()
	a := &agent.Agent{
		Model:    p.newModel(t, srv, pol),
		Tools:    faultTools(root),
		Session:  sess,
		Approval: agent.NewApproval(agent.PolicyAuto),
		Audit:    agent.NewAudit(root),
	}
	defer a.Audit.Close()

	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	start := time.Now()
	var retries []*agent.Retry
	out, err := a.Run(ctx, "write out.md", func(ev agent.Event) {
		if ev.Type == agent.EventRetry {
			retries = append(retries, ev.Retry)
		}
	})
	if tc.retry != "" {
		if len(retries) == 0 || retries[0].Reason != tc.retry || retries[0].Attempt != 1 || retries[0].Provider == "" {
			t.Errorf("retry events = %+v, want the first one %q at attempt 1 with its provider", retries, tc.retry)
		} else if tc.retry == "rate_limited" && retries[0].Wait != time.Second {
			t.Errorf("retry wait = %s, want the server's Retry-After of 1s", retries[0].Wait)
		}
	}
	if ctx.Err() != nil {
		t.Fatalf("the run hung: still going after %s", time.Since(start))
	}
	switch {
	case tc.wantErr == "" && err != nil:
		t.Fatalf("Run: %v", err)
	case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
		t.Fatalf("Run error = %v, want one containing %q", err, tc.wantErr)
	case tc.wantErr == "" && out.Answer == "":
		t.Errorf("no answer")
	}
	if err != nil && strings.ContainsAny(err.Error(), "\n\r") {
		t.Errorf("error is not one line: %q", err)
	}
	b, readErr := os.ReadFile(filepath.Join(root, "out.md"))
	switch {
	case tc.wrote == "" && readErr == nil:
		t.Errorf("out.md was written (%q) by a call the fault cut off", b)
	case tc.wrote != "" && string(b) != tc.wrote:
		t.Errorf("out.md = %q, %v; want %q", b, readErr, tc.wrote)
	}
	checkJSONL(t, sess.Path())
}

// checkJSONL fails unless every line of the file is a JSON object. A
// missing file is fine: nothing was said yet.
func checkJSONL(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Errorf("session log line %d is not JSON: %q", n, sc.Text())
		}
	}
}

type faultWriteArgs struct {
	FilePath string `json:"file_path"`
	Content  string `json:"content" verbatim:"true"`
}

func faultTools(root string) *tools.Registry {
	return tools.NewRegistry(tools.New("write_file", "Write a file.", func(_ context.Context, a faultWriteArgs) (tools.Result, error) {
		return tools.Result{Message: "wrote " + a.FilePath}, os.WriteFile(filepath.Join(root, a.FilePath), []byte(a.Content), 0o644)
	}, tools.Writes()))
}
