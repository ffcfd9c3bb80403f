package agent

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agentcli/agent/agent/llm/llmtest"
	"github.com/agentcli/agent/tools"
)

// testTools is a small registry over a real folder: read_file (read-only)
// and write_file (writes; create, overwrite or append), enough to drive
// the loop the way the real file tools do. It records the CallInfo each
// call ran with and counts executions.
type testTools struct {
	root  string
	mu    sync.Mutex
	infos []tools.CallInfo
	runs  map[string]int
}

type readArgs struct {
	FilePath string `json:"file_path" path:"true" jsonschema:"file to read"`
}

type writeArgs struct {
	OperationType string `json:"operation_type" enum:"create,overwrite,append"`
	FilePath      string `json:"file_path" path:"true"`
	Content       string `json:"content" verbatim:"true"`
}

func (tt *testTools) note(ctx context.Context, name string) {
	tt.mu.Lock()
	defer tt.mu.Unlock()
	tt.infos = append(tt.infos, tools.Info(ctx))
	tt.runs[name]++
}

func (tt *testTools) registry() *tools.Registry {
	read := tools.New("read_file", "Read a file.", func(ctx context.Context, a readArgs) (tools.Result, error) {
		tt.note(ctx, "read_file")
		b, err := os.ReadFile(filepath.Join(tt.root, a.FilePath))
		if errors.Is(err, os.ErrNotExist) {
			return tools.Errorf(tools.CodeFileNotFound, "file not found: %s", a.FilePath), nil
		}
		if err != nil {
			return tools.Result{}, err
		}
		return tools.Result{Message: "read " + a.FilePath, Content: string(b)}, nil
	})
	write := tools.New("write_file", "Write a file.", func(ctx context.Context, a writeArgs) (tools.Result, error) {
		tt.note(ctx, "write_file")
		p := filepath.Join(tt.root, a.FilePath)
		flag := os.O_WRONLY | os.O_CREATE
		switch a.OperationType {
		case "create":
			flag |= os.O_EXCL
		case "overwrite":
			flag |= os.O_TRUNC
		case "append":
			flag |= os.O_APPEND
		}
		f, err := os.OpenFile(p, flag, 0o644)
		if errors.Is(err, os.ErrExist) {
			return tools.Errorf(tools.CodeFileExists, "file exists: %s", a.FilePath), nil
		}
		if err != nil {
			return tools.Result{}, err
		}
		defer f.Close()
		if _, err := f.WriteString(a.Content); err != nil {
			return tools.Result{}, err
		}
		return tools.Result{Message: a.OperationType + " " + a.FilePath, Changed: []string{a.FilePath}}, nil
	}, tools.Writes())
	return tools.NewRegistry(read, write)
}

// env is one loop under test: a temporary project, the test tools, a
// scripted model and the events the run emitted.
type env struct {
	t      *testing.T
	root   string
	tools  *testTools
	model  *llmtest.Script
	agent  *Agent
	events []Event
}

func newEnv(t *testing.T, replies ...llmtest.Reply) *env {
	t.Helper()
	root := t.TempDir()
	tt := &testTools{root: root, runs: map[string]int{}}
	model := llmtest.NewScript(replies...)
	e := &env{t: t, root: root, tools: tt, model: model}
	e.agent = &Agent{
		Model:    model,
		Tools:    tt.registry(),
		Session:  NewSession(root),
		System:   "You are a test.",
		Approval: approvalSetup{Policy: PolicyAuto}.approval(),
		Audit:    NewAudit(root),
	}
	t.Cleanup(func() {
		e.agent.Session.Close()
		e.agent.Audit.Close()
	})
	return e
}

func texts(ts ...string) []llmtest.Reply {
	rs := make([]llmtest.Reply, len(ts))
	for i, s := range ts {
		rs[i] = llmtest.Reply{Text: s}
	}
	return rs
}

func (e *env) run(prompt string) (*Outcome, error) {
	e.t.Helper()
	return e.agent.Run(e.t.Context(), prompt, func(ev Event) { e.events = append(e.events, ev) })
}

func (e *env) file(name string) string {
	e.t.Helper()
	b, err := os.ReadFile(filepath.Join(e.root, name))
	if err != nil {
		e.t.Fatalf("read %s: %v", name, err)
	}
	return string(b)
}

func (e *env) exists(name string) bool {
	_, err := os.Stat(filepath.Join(e.root, name))
	return err == nil
}

func (e *env) writeFile(name, content string) {
	e.t.Helper()
	if err := os.WriteFile(filepath.Join(e.root, name), []byte(content), 0o644); err != nil {
		e.t.Fatal(err)
	}
}

// results returns the CallResults of the result events, in order.
func (e *env) results() []CallResult {
	var out []CallResult
	for _, ev := range e.events {
		if ev.Type == EventResult {
			out = append(out, *ev.Result)
		}
	}
	return out
}

// codes returns the code of each result event ("" for success).
func (e *env) codes() []string {
	var out []string
	for _, r := range e.results() {
		out = append(out, r.Result.Code)
	}
	return out
}

// streamedText joins the text events.
func (e *env) streamedText() string {
	var b strings.Builder
	for _, ev := range e.events {
		if ev.Type == EventText {
			b.WriteString(ev.Text)
		}
	}
	return b.String()
}

// readJSONL parses every line of a JSON-lines file, failing the test on a
// line that is not a JSON object.
func readJSONL(t *testing.T, path string) []map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for n := 1; sc.Scan(); n++ {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("%s line %d is not valid JSON: %v: %q", path, n, err, sc.Text())
		}
		out = append(out, m)
	}
	return out
}

// approvalSetup describes an Approval for a test: the policy it starts
// with, who is asked, and the user's rules.
type approvalSetup struct {
	Policy      Policy
	Ask         Asker
	NoOneToAsk  string
	Permissions Permissions
}

func (s approvalSetup) approval() *Approval {
	a := NewApproval(s.Policy)
	a.Ask, a.NoOneToAsk, a.Permissions = s.Ask, s.NoOneToAsk, s.Permissions
	return a
}
