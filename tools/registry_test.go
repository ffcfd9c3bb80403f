package tools_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentcli/agent/tools"
)

type echoArgs struct {
	Text    string `json:"text" verbatim:"true" jsonschema:"text to echo"`
	Mode    string `json:"mode,omitempty" enum:"plain,loud"`
	Times   *int   `json:"times,omitempty"`
	Trim    bool   `json:"trim,omitempty"`
	Payload any    `json:"payload,omitempty"`
}

func echoTool() tools.Tool {
	return tools.New("echo", "Echo the text.", func(_ context.Context, a echoArgs) (tools.Result, error) {
		out := a.Text
		if a.Mode == "loud" {
			out = strings.ToUpper(out)
		}
		if a.Times != nil {
			out = strings.Repeat(out, *a.Times)
		}
		if a.Payload != nil {
			out += "+payload"
		}
		return tools.Result{Content: out}, nil
	})
}

func newTestRegistry() *tools.Registry {
	panicky := tools.New("panicky", "Panics.", func(context.Context, struct{}) (tools.Result, error) {
		panic("boom")
	})
	slow := tools.New("slow", "Sleeps.", func(ctx context.Context, _ struct{}) (tools.Result, error) {
		select {
		case <-ctx.Done():
			return tools.Result{}, ctx.Err()
		case <-time.After(10 * time.Second):
			return tools.Result{Content: "late"}, nil
		}
	}, tools.Timeout(50*time.Millisecond))
	broken := tools.New("broken", "Fails for real.", func(context.Context, struct{}) (tools.Result, error) {
		return tools.Result{}, errors.New("disk on fire")
	}, tools.Writes())
	return tools.NewRegistry(echoTool(), panicky, slow, broken)
}

func TestCall(t *testing.T) {
	reg := newTestRegistry()
	cases := []struct {
		name     string
		tool     string
		args     map[string]string
		code     string
		content  string
		inMsg    []string
		goErrMsg string
	}{
		{name: "ok", tool: "echo", args: map[string]string{"text": "\nhi\n  "}, content: "hi\n"},
		{name: "enum case-insensitive and integer", tool: "echo", args: map[string]string{"text": "a", "mode": " LOUD ", "times": " 3 "}, content: "AAA"},
		{name: "json param", tool: "echo", args: map[string]string{"text": "a", "payload": `{"k":[1]}`}, content: "a+payload"},
		{name: "empty optional integer is absent", tool: "echo", args: map[string]string{"text": "a", "times": ""}, content: "a"},
		{name: "unknown tool lists the available ones", tool: "nope", code: tools.CodeToolUnknown, inMsg: []string{"echo", "panicky", "slow", "broken"}},
		{name: "missing required", tool: "echo", args: map[string]string{}, code: tools.CodeSchemaInvalid, inMsg: []string{"missing required parameter text"}},
		{name: "bad integer", tool: "echo", args: map[string]string{"text": "a", "times": "three"}, code: tools.CodeSchemaInvalid, inMsg: []string{"times", "integer", "three"}},
		{name: "bad enum", tool: "echo", args: map[string]string{"text": "a", "mode": "quiet"}, code: tools.CodeSchemaInvalid, inMsg: []string{"one of plain, loud"}},
		{name: "bad boolean", tool: "echo", args: map[string]string{"text": "a", "trim": "maybe"}, code: tools.CodeSchemaInvalid, inMsg: []string{"true or false"}},
		{name: "bad json", tool: "echo", args: map[string]string{"text": "a", "payload": "{"}, code: tools.CodeSchemaInvalid, inMsg: []string{"JSON"}},
		{name: "undefined parameter", tool: "echo", args: map[string]string{"text": "a", "path": "x"}, code: tools.CodeSchemaInvalid, inMsg: []string{`no parameter "path"`, "text (string, required)"}},
		{name: "panic becomes an error result", tool: "panicky", code: tools.CodeProviderError, inMsg: []string{"boom"}},
		{name: "time limit", tool: "slow", code: tools.CodeTimeout, inMsg: []string{"50ms"}},
		{name: "program failure is a Go error", tool: "broken", goErrMsg: "disk on fire"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := reg.Call(t.Context(), tc.tool, tc.args)
			if tc.goErrMsg != "" {
				if err == nil || !strings.Contains(err.Error(), tc.goErrMsg) {
					t.Fatalf("Call error = %v, want %q", err, tc.goErrMsg)
				}
				return
			}
			if err != nil {
				t.Fatalf("Call error = %v", err)
			}
			if res.Code != tc.code {
				t.Fatalf("Code = %q (%s), want %q", res.Code, res.Message, tc.code)
			}
			if tc.code == "" && res.Content != tc.content {
				t.Errorf("Content = %q, want %q", res.Content, tc.content)
			}
			for _, s := range tc.inMsg {
				if !strings.Contains(res.Message, s) {
					t.Errorf("Message %q does not mention %q", res.Message, s)
				}
			}
			if strings.Contains(res.Message, "\n") {
				t.Errorf("Message %q is not one line", res.Message)
			}
		})
	}
}

func TestCancelledContextIsNotATimeout(t *testing.T) {
	reg := newTestRegistry()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := reg.Call(ctx, "slow", nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Call on a cancelled context = %v, want context.Canceled", err)
	}
}

func TestDefinitionFromStruct(t *testing.T) {
	def := echoTool().Definition()
	want := []tools.Param{
		{Name: "text", Description: "text to echo", Kind: tools.String, Required: true, Verbatim: true},
		{Name: "mode", Kind: tools.Enum, Enum: []string{"plain", "loud"}},
		{Name: "times", Kind: tools.Integer},
		{Name: "trim", Kind: tools.Boolean},
		{Name: "payload", Kind: tools.JSON},
	}
	if len(def.Params) != len(want) {
		t.Fatalf("params = %+v", def.Params)
	}
	for i, w := range want {
		g := def.Params[i]
		if g.Name != w.Name || g.Kind != w.Kind || g.Required != w.Required || g.Verbatim != w.Verbatim ||
			g.Description != w.Description || strings.Join(g.Enum, ",") != strings.Join(w.Enum, ",") {
			t.Errorf("param %d = %+v, want %+v", i, g, w)
		}
	}
}

// TestDefinitionDescribesItself: a path:"true" field is a project path,
// the options mark what agent serve must leave out, and the definition
// answers what the rules ask of it.
func TestDefinitionDescribesItself(t *testing.T) {
	type args struct {
		File string `json:"file" path:"true"`
		Text string `json:"text"`
	}
	def := tools.New("put", "Puts.", func(context.Context, args) (tools.Result, error) { return tools.Result{}, nil },
		tools.Writes(), tools.NotServed()).Definition()
	if got := def.PathParams(); len(got) != 1 || got[0] != "file" {
		t.Errorf("PathParams = %v, want [file]", got)
	}
	if !def.NotServed || def.RunsPrograms() || def.CommandParam() != "" {
		t.Errorf("definition %+v: want not served, no command", def)
	}
	run := tools.Definition{Params: []tools.Param{{Name: "line", Command: true}}}
	if run.CommandParam() != "line" || !run.RunsPrograms() {
		t.Errorf("a Command parameter does not make a tool that runs programs: %+v", run)
	}
}

func TestDuplicateName(t *testing.T) {
	reg := tools.NewRegistry(echoTool())
	if err := reg.Add(echoTool()); !errors.Is(err, tools.ErrDuplicateTool) {
		t.Fatalf("Add duplicate = %v, want ErrDuplicateTool", err)
	}
}

func TestNormalize(t *testing.T) {
	verbatim := tools.Param{Verbatim: true}
	text := tools.Param{}
	for _, tc := range []struct {
		p       tools.Param
		in, out string
	}{
		{verbatim, "\nline1\nline2\n  ", "line1\nline2\n"},
		{verbatim, "\r\nx\r\n\t", "x\r\n"},
		{verbatim, "\n\nx", "\nx"},
		{verbatim, "  x  ", "  x  "},
		{verbatim, "a\n  b  ", "a\n  b  "},
		{text, "  a.go \n", "a.go"},
	} {
		if got := tools.Normalize(tc.p, tc.in); got != tc.out {
			t.Errorf("Normalize(verbatim=%v, %q) = %q, want %q", tc.p.Verbatim, tc.in, got, tc.out)
		}
	}
}

// TestCancelWaitsForCleanup checks that a cancelled call returns only
// after the tool has seen the cancellation and cleaned up, so that an
// interrupted write never leaves its temp file behind when the process
// exits right after.
func TestCancelWaitsForCleanup(t *testing.T) {
	var cleaned atomic.Bool
	started := make(chan struct{})
	tool := tools.New("careful", "Cleans up when cancelled.", func(ctx context.Context, _ struct{}) (tools.Result, error) {
		close(started)
		<-ctx.Done()
		time.Sleep(50 * time.Millisecond) // removing a temp file, say
		cleaned.Store(true)
		return tools.Result{}, ctx.Err()
	})
	reg := tools.NewRegistry(tool)
	ctx, cancel := context.WithCancel(t.Context())
	go func() { <-started; cancel() }()
	res, err := reg.Call(ctx, "careful", nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Call = %v, want context.Canceled", err)
	}
	// It ran: the answer says it was interrupted, not that it never ran.
	if res.Code != tools.CodeInterrupted || !strings.Contains(res.Message, "interrupted by the user while it ran") {
		t.Errorf("result = %s %q, want TOOL_INTERRUPTED", res.Code, res.Message)
	}
	if !cleaned.Load() {
		t.Error("Call returned before the cancelled tool finished cleaning up")
	}
}

// TestTimeoutWaitsForTheTool: a tool that goes on past its time limit
// (it ignores its context for a while) is waited for, so that what it
// writes lands before the model is told it stopped, never after.
func TestTimeoutWaitsForTheTool(t *testing.T) {
	var wrote atomic.Bool
	stubborn := tools.New("stubborn", "Finishes its write whatever it is told.", func(ctx context.Context, _ struct{}) (tools.Result, error) {
		<-ctx.Done()
		time.Sleep(100 * time.Millisecond) // finishing a write
		wrote.Store(true)
		return tools.Result{}, ctx.Err()
	}, tools.Timeout(20*time.Millisecond))
	res, err := tools.NewRegistry(stubborn).Call(t.Context(), "stubborn", nil)
	if err != nil || res.Code != tools.CodeTimeout || !strings.Contains(res.Message, "was stopped") {
		t.Fatalf("Call = %+v, %v; want a timeout saying it stopped", res, err)
	}
	if !wrote.Load() {
		t.Error("the model was told the tool stopped before its write landed")
	}
}

// TestTimeoutSaysAToolMayStillRun: a tool that does not stop within the
// grace period is answered with a timeout that says it may still be
// running, rather than that it stopped.
func TestTimeoutSaysAToolMayStillRun(t *testing.T) {
	tools.SetCancelGrace(t, 50*time.Millisecond)
	release := make(chan struct{})
	defer close(release)
	deaf := tools.New("deaf", "Never listens.", func(context.Context, struct{}) (tools.Result, error) {
		<-release
		return tools.Result{}, nil
	}, tools.Timeout(20*time.Millisecond))
	res, err := tools.NewRegistry(deaf).Call(t.Context(), "deaf", nil)
	if err != nil || res.Code != tools.CodeTimeout || !strings.Contains(res.Message, "may still be running") {
		t.Fatalf("Call = %+v, %v; want a timeout saying it may still run", res, err)
	}
}

// TestAfterAddsToSuccessOnly: the registry's After step sees each call
// that succeeded, with its input, and may add to its result; a call that
// failed is left as it was.
func TestAfterAddsToSuccessOnly(t *testing.T) {
	reg := newTestRegistry()
	var seen []string
	reg.After = func(_ context.Context, def tools.Definition, in tools.Input, res *tools.Result) {
		seen = append(seen, def.Name+":"+in.Values["text"].(string))
		res.Content += "\ndiagnostics: no errors"
	}
	res, err := reg.Call(t.Context(), "echo", map[string]string{"text": "hi"})
	if err != nil || res.Content != "hi\ndiagnostics: no errors" {
		t.Errorf("echo = %q, %v; want After's addition", res.Content, err)
	}
	res, _ = reg.Call(t.Context(), "echo", map[string]string{"text": "hi", "mode": "bogus"})
	if !res.IsError() || strings.Contains(res.Content, "diagnostics") {
		t.Errorf("a failed call = %+v", res)
	}
	res, _ = reg.Call(t.Context(), "panicky", nil)
	if !res.IsError() || len(seen) != 1 || seen[0] != "echo:hi" {
		t.Errorf("After saw %v; want the one successful call", seen)
	}
}
