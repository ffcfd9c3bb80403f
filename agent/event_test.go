package agent

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/xmlcall"
	"github.com/agentcli/agent/tools"
)

func TestEventJSON(t *testing.T) {
	call := &xmlcall.Call{Name: "read_file", ID: "1", Params: []xmlcall.Param{{Name: "file_path", Value: "a.md"}}}
	res := &CallResult{ID: "1", Tool: "read_file", Params: call.Params,
		Result: tools.Result{Code: tools.CodeFileNotFound, Message: "file not found: a.md", Content: "secret file body"}, Duration: 1500 * time.Microsecond}
	for _, tc := range []struct {
		ev   Event
		want string
	}{
		{Event{Type: EventText, Iteration: 1, Text: "hi"}, `{"type":"text","iteration":1,"text":"hi"}`},
		{Event{Type: EventCall, Iteration: 1, Call: call}, `{"type":"call","iteration":1,"call":{"id":"1","tool":"read_file","params":{"file_path":"a.md"}}}`},
		{Event{Type: EventResult, Iteration: 2, Result: res}, `{"type":"result","iteration":2,"result":{"id":"1","tool":"read_file","params":{"file_path":"a.md"},"outcome":"error","code":"FILE_NOT_FOUND","message":"file not found: a.md","duration_ms":1.5}}`},
		{Event{Type: EventUsage, Usage: &llm.Usage{InputTokens: 3, OutputTokens: 4}}, `{"type":"usage","usage":{"input_tokens":3,"output_tokens":4}}`},
		{Event{Type: EventError, Err: errors.New("boom")}, `{"type":"error","error":"boom"}`},
	} {
		b, err := json.Marshal(tc.ev)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != tc.want {
			t.Errorf("json = %s\nwant   %s", b, tc.want)
		}
	}
}

// TestResultJSONCarriesDiagnostics: stream-json's result holds what the
// language servers said of the changed files.
func TestResultJSONCarriesDiagnostics(t *testing.T) {
	r := CallResult{ID: "1", Tool: "write_file", Result: tools.Result{Message: "created a.go", Changed: []string{"a.go"},
		Diagnostics: &tools.Diagnostics{Files: []string{"a.go"}, Errors: 1, Items: []tools.Diagnostic{{Path: "a.go", Line: 3, Column: 2, Severity: "error", Message: "undefined: x", Source: "compiler"}}}}}
	b, err := json.Marshal(Event{Type: EventResult, Result: &r})
	if err != nil {
		t.Fatal(err)
	}
	want := `"diagnostics":{"files":["a.go"],"errors":1,"items":[{"path":"a.go","line":3,"column":2,"severity":"error","message":"undefined: x","source":"compiler"}]}`
	if !strings.Contains(string(b), want) {
		t.Errorf("event = %s, want %s", b, want)
	}
}
