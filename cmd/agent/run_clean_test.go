package main

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/llm/llmtest"
)

// droppedThenWhole is a reply whose stream drops after its first half,
// then the same reply asked again, whole.
func droppedThenWhole() *llmtest.Script {
	return llmtest.NewScript(
		llmtest.Reply{Text: "The answer is for", Err: &llm.DropError{Provider: "gemini", Received: 17, Err: errors.New("connection reset")}},
		llmtest.Reply{Text: "The answer is 42."},
	)
}

func TestRunTextToAFileHasTheAnswerOnce(t *testing.T) {
	h := newRunHarness(t)
	h.model = droppedThenWhole()
	out, errOut, code := h.run("hi")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if out != "The answer is 42.\n" {
		t.Errorf("stdout = %q, want the answer once, without the dropped half", out)
	}
	if !strings.Contains(errOut, "dropped before any tool call; asking again\n") {
		t.Errorf("stderr = %q, want the retry noted", errOut)
	}
}

func TestRunTextOnATerminalMarksTheRestart(t *testing.T) {
	h := newRunHarness(t)
	h.model = droppedThenWhole()
	h.stdoutTTY = true
	out, errOut, code := h.run("hi")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// Shown as it came: the first half stays on the screen, the restart
	// is marked, and the answer follows set apart.
	if out != "The answer is for\n\nThe answer is 42.\n" {
		t.Errorf("stdout = %q", out)
	}
	if !strings.Contains(errOut, "asking again; the reply starts again below") {
		t.Errorf("stderr = %q, want the restart marked", errOut)
	}
}

func TestRunTextKeepsTheProseBeforeACall(t *testing.T) {
	h := newRunHarness(t)
	h.write("a.txt", "alpha")
	h.model = llmtest.NewScript(
		llmtest.Reply{Text: "Reading it.\n<tool_call name=\"read_file\" id=\"1\"><file_path>a.txt</file_path></tool_call>"},
		llmtest.Reply{Text: "It says alp", Err: &llm.DropError{Provider: "gemini", Received: 11, Err: errors.New("reset")}},
		llmtest.Reply{Text: "It says alpha."},
	)
	out, errOut, code := h.run("what is in a.txt?")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if out != "Reading it.\n\nIt says alpha.\n" {
		t.Errorf("stdout = %q, want the first reply's prose and the answer once", out)
	}
}

func TestRunJSONNamesTheAttemptOfTheAnswer(t *testing.T) {
	h := newRunHarness(t)
	h.model = droppedThenWhole()
	out, _, _ := h.run("--output-format", "json", "hi")
	var got struct {
		Answer        string `json:"answer"`
		AnswerAttempt int    `json:"answer_attempt"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Answer != "The answer is 42." || got.AnswerAttempt != 2 {
		t.Errorf("got %+v, want the answer of attempt 2", got)
	}

	h = newRunHarness(t, "Hello.")
	out, _, _ = h.run("--output-format", "json", "hi")
	if !strings.Contains(out, `"answer_attempt": 1`) {
		t.Errorf("a plain run does not say attempt 1:\n%s", out)
	}
}

func TestRunStreamJSONMarksTheTextOfTheSecondAttempt(t *testing.T) {
	h := newRunHarness(t)
	h.model = droppedThenWhole()
	out, _, _ := h.run("--output-format", "stream-json", "hi")
	texts := map[any]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var ev map[string]any
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("line %q is not JSON: %v", line, err)
		}
		if ev["type"] == "text" {
			texts[ev["attempt"]] += ev["text"].(string)
		}
	}
	if len(texts) != 2 || texts[nil] != "The answer is for" || texts[float64(2)] != "The answer is 42." {
		t.Errorf("text by attempt = %q, want the second attempt's marked 2", texts)
	}
	outcome, _ := lastLine(t, out)["outcome"].(map[string]any)
	if outcome["answer_attempt"] != float64(2) {
		t.Errorf("done outcome = %v, want answer_attempt 2", outcome)
	}
}
