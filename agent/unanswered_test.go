package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/tools"
)

const readThenWrite = `<tool_call name="read_file" id="1"><file_path>a.md</file_path></tool_call>` +
	`<tool_call name="write_file" id="2"><operation_type>create</operation_type><file_path>out.md</file_path><content>x</content></tool_call>` +
	`<tool_call name="write_file" id="3"><operation_type>create</operation_type><file_path>two.md</file_path><content>y</content></tool_call>`

func TestRunInterruptedAtApprovalAnswersEveryCall(t *testing.T) {
	e := newEnv(t, texts(readThenWrite, "next answer")...)
	e.writeFile("a.md", "hello\n")
	e.agent.Approval = approvalSetup{Policy: PolicyAsk, Ask: AskFunc(func(context.Context, Question) (Answer, error) {
		return Answer{}, context.Canceled
	})}.approval()
	out, err := e.run("write")
	if err == nil {
		t.Fatal("run did not fail")
	}
	if got := e.codes(); strings.Join(got, ",") != ","+tools.CodeSkipped+","+tools.CodeSkipped {
		t.Errorf("result codes = %q, want ok then two skipped", got)
	}
	if len(out.Calls) != 3 {
		t.Errorf("outcome has %d calls, want 3", len(out.Calls))
	}
	msgs := e.agent.Session.Messages()
	last := msgs[len(msgs)-1]
	if last.Role != llm.User || !strings.Contains(last.Text, `<tool_response id="1"`) ||
		strings.Count(last.Text, notRunMessage) != 2 || !strings.Contains(last.Text, `<tool_response id="3"`) {
		t.Fatalf("last message = %s %q, want the responses to all three calls", last.Role, last.Text)
	}

	// Continuing: the next prompt follows the responses, not the calls.
	s, err := OpenSession(e.root, e.agent.Session.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	readJSONL(t, s.Path())
	e.agent.Session, e.agent.Approval = s, approvalSetup{Policy: PolicyAuto}.approval()
	if _, err := e.run("go on"); err != nil {
		t.Fatal(err)
	}
	sent := e.model.Requests()[1].Messages
	if n := len(sent); sent[n-1].Role != llm.User || !strings.HasPrefix(sent[n-1].Text, "<tool_response") || !strings.HasSuffix(sent[n-1].Text, "go on") {
		t.Errorf("continued request ends with %s %q", sent[n-1].Role, sent[n-1].Text)
	}
}

func TestContinuingASessionLeftOnCallsAnswersThemFirst(t *testing.T) {
	e := newEnv(t, texts("fine")...)
	// A run killed right after the reply was saved.
	s := e.agent.Session
	if err := s.Append(llm.Message{Role: llm.User, Text: "write"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Append(llm.Message{Role: llm.Assistant, Text: readThenWrite}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err := OpenSession(e.root, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	e.agent.Session = s
	if _, err := e.run("go on"); err != nil {
		t.Fatal(err)
	}
	if e.tools.runs["write_file"] != 0 {
		t.Errorf("a call of the old reply ran")
	}
	sent := e.model.Requests()[0].Messages
	last := sent[len(sent)-1].Text
	if strings.Count(last, notRunMessage) != 3 || !strings.HasSuffix(last, "go on") {
		t.Errorf("continued request ends with %q", last)
	}
	lines := readJSONL(t, s.Path())
	if got := lines[len(lines)-3]["text"].(string); !strings.HasPrefix(got, "<tool_response") {
		t.Errorf("log line before the prompt = %q, want the responses", got)
	}
}
