package main

import (
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/llm/llmtest"
)

func TestRunJSONSaysTheReplyWasAskedAgain(t *testing.T) {
	h := newRunHarness(t)
	h.model = llmtest.NewScript(
		llmtest.Reply{Text: "Let me", Err: &llm.DropError{Provider: "test", Received: 6, Err: errors.New("connection reset")}},
		llmtest.Reply{Text: "Hello."},
	)
	out, errOut, code := h.run("--output-format", "json", "hi")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		Answer  string
		Retries int
		Notes   []string
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Answer != "Hello." || got.Retries != 1 || len(got.Notes) != 1 || !strings.Contains(got.Notes[0], "dropped") {
		t.Errorf("result = %+v, want one retry noted", got)
	}
}

// lastLine decodes the last line of stream-json output.
func lastLine(t *testing.T, out string) map[string]any {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var m map[string]any
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &m); err != nil {
		t.Fatalf("last line is not JSON: %v", err)
	}
	return m
}

func TestRunStreamJSONEndsWithDoneAfterAnError(t *testing.T) {
	h := newRunHarness(t)
	h.model = llmtest.NewScript(llmtest.Reply{Err: errors.New("rejected the API key")})
	out, _, code := h.run("--output-format", "stream-json", "hi")
	if code != exitFailed {
		t.Errorf("exit %d", code)
	}
	if !strings.Contains(out, `"type":"error"`) {
		t.Errorf("no error event:\n%s", out)
	}
	done := lastLine(t, out)
	outcome, _ := done["outcome"].(map[string]any)
	if done["type"] != "done" || outcome == nil || !strings.Contains(outcome["error"].(string), "rejected the API key") {
		t.Errorf("last event = %v, want done carrying the error", done)
	}
}

func TestRunDoneOutcomeAndJSONObjectHaveTheSameFields(t *testing.T) {
	h := newRunHarness(t, "Hello.")
	out, _, _ := h.run("--output-format", "stream-json", "hi")
	outcome, _ := lastLine(t, out)["outcome"].(map[string]any)

	h = newRunHarness(t, "Hello.")
	out, _, _ = h.run("--output-format", "json", "hi")
	var object map[string]any
	if err := json.Unmarshal([]byte(out), &object); err != nil {
		t.Fatal(err)
	}
	a, b := slices.Sorted(maps.Keys(outcome)), slices.Sorted(maps.Keys(object))
	if !slices.Equal(a, b) {
		t.Errorf("done.outcome fields %v, json fields %v", a, b)
	}
	for _, k := range []string{"error", "stopped", "retries"} {
		if _, ok := object[k]; !ok {
			t.Errorf("json object lacks %q", k)
		}
	}
}
