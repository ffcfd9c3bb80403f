package agent

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strings"
	"testing"
	"time"

	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/llm/llmtest"
	"github.com/agentcli/agent/tools"
)

const readREADME = `I will read it first.
<tool_call name="read_file" id="1">
  <file_path>README.md</file_path>
</tool_call>`

func TestRunReadThenPartialWriteThenAnswer(t *testing.T) {
	e := newEnv(t, texts(
		readREADME,
		"Appending a line.\n```xml\n<tool_call name=\"write_file\" id=\"2\">\n<operation_type>append</operation_type>\n<file_path>README.md</file_path>\n<content>\nline 2 & <more>\n</content>\n</tool_call>\n```\n",
		"Done: README.md now has two lines.",
	)...)
	e.writeFile("README.md", "# Title\n")

	out, err := e.run("add a line to README.md")
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if got, want := e.file("README.md"), "# Title\nline 2 & <more>\n"; got != want {
		t.Errorf("README.md = %q, want %q", got, want)
	}
	if out.Answer != "Done: README.md now has two lines." {
		t.Errorf("Answer = %q", out.Answer)
	}
	if out.Iterations != 3 || len(out.Calls) != 2 || out.Stopped {
		t.Errorf("Outcome = %+v, want 3 iterations, 2 calls, not stopped", out)
	}

	reqs := e.model.Requests()
	if len(reqs) != 3 {
		t.Fatalf("model got %d requests, want 3", len(reqs))
	}
	for i, r := range reqs {
		if r.System != "You are a test." {
			t.Errorf("request %d system = %q", i+1, r.System)
		}
		// The Scanner cuts a model-written <tool_response itself; a
		// stop sequence would also cut a write about the protocol.
		if len(r.Stop) != 0 {
			t.Errorf("request %d stop = %q, want none", i+1, r.Stop)
		}
	}
	// The second request carries the first reply and one user turn with
	// the response holding the file's content.
	second := reqs[1].Messages
	if len(second) != 3 || second[1].Role != llm.Assistant || second[2].Role != llm.User {
		t.Fatalf("second request messages = %+v", second)
	}
	if second[1].Text != readREADME {
		t.Errorf("assistant message = %q, want the reply as written", second[1].Text)
	}
	turn := second[2].Text
	for _, want := range []string{`<tool_response id="1">`, "# Title", "<![CDATA["} {
		if !strings.Contains(turn, want) {
			t.Errorf("tool response turn lacks %q:\n%s", want, turn)
		}
	}

	// The fence around the second call is not shown, but the
	// conversation keeps the reply as the model wrote it.
	if strings.Contains(e.streamedText(), "```") {
		t.Errorf("streamed text shows the fence: %q", e.streamedText())
	}
	if !strings.Contains(reqs[2].Messages[3].Text, "```xml\n<tool_call") {
		t.Errorf("second reply kept as %q, want it as written", reqs[2].Messages[3].Text)
	}

	// Events: text before the call, the call recognised, then its result.
	var kinds []EventType
	for _, ev := range e.events {
		if len(kinds) == 0 || kinds[len(kinds)-1] != ev.Type {
			kinds = append(kinds, ev.Type)
		}
	}
	want := []EventType{EventText, EventCall, EventToolStart, EventResult, EventText, EventCall, EventText, EventToolStart, EventResult, EventText, EventNotification, EventDone}
	if fmt.Sprint(kinds) != fmt.Sprint(want) {
		t.Errorf("event kinds = %v, want %v", kinds, want)
	}
	last := e.events[len(e.events)-1]
	if last.Type != EventDone || last.Outcome != out {
		t.Errorf("last event = %+v, want done with the outcome", last)
	}
}

func TestRunPutsCallInfoInContext(t *testing.T) {
	e := newEnv(t, texts(
		readREADME,
		`<tool_call name="write_file" id="a"><operation_type>create</operation_type><file_path>x.txt</file_path><content>x</content></tool_call>
<tool_call name="write_file" id="b"><operation_type>create</operation_type><file_path>y.txt</file_path><content>y</content></tool_call>`,
		"ok",
	)...)
	e.writeFile("README.md", "r")
	if _, err := e.run("go"); err != nil {
		t.Fatal(err)
	}
	infos := e.tools.infos
	if len(infos) != 3 {
		t.Fatalf("tools ran %d times, want 3", len(infos))
	}
	sid := e.agent.Session.ID
	for i, want := range []string{"1", "a", "b"} {
		if infos[i].SessionID != sid || infos[i].CallID != want {
			t.Errorf("call %d info = %+v, want session %s call %s", i, infos[i], sid, want)
		}
	}
	if infos[0].ChangeSet == "" || infos[0].ChangeSet == infos[1].ChangeSet {
		t.Errorf("change sets of two replies = %q, %q: want distinct", infos[0].ChangeSet, infos[1].ChangeSet)
	}
	if infos[1].ChangeSet != infos[2].ChangeSet {
		t.Errorf("change sets of one reply = %q, %q: want equal", infos[1].ChangeSet, infos[2].ChangeSet)
	}
}

func TestRunTruncatedCallNeverWrites(t *testing.T) {
	e := newEnv(t, texts(
		"Writing it.\n<tool_call name=\"write_file\" id=\"7\">\n<operation_type>create</operation_type>\n<file_path>big.txt</file_path>\n<content>\nvery long text that was cut",
		"I will split it.",
	)...)
	out, err := e.run("write big.txt")
	if err != nil {
		t.Fatal(err)
	}
	if e.tools.runs["write_file"] != 0 {
		t.Errorf("write_file ran %d times for a truncated call", e.tools.runs["write_file"])
	}
	rs := e.results()
	if len(rs) != 1 || rs[0].Result.Code != tools.CodeCallIncomplete || rs[0].Outcome() != OutcomeBroken {
		t.Fatalf("results = %+v, want one CALL_INCOMPLETE", rs)
	}
	if !strings.Contains(rs[0].Result.Message, "smaller pieces") || !strings.Contains(rs[0].Result.Message, "partial writes") {
		t.Errorf("message = %q, want advice to split the content", rs[0].Result.Message)
	}
	turn := e.model.Requests()[1].Messages[2].Text
	if !strings.Contains(turn, `code="CALL_INCOMPLETE"`) || !strings.Contains(turn, `id="7"`) {
		t.Errorf("second request lacks the CALL_INCOMPLETE response:\n%s", turn)
	}
	if out.Answer != "I will split it." {
		t.Errorf("Answer = %q", out.Answer)
	}
}

func TestRunStopsAtModelWrittenToolResponse(t *testing.T) {
	invented := readREADME + "\n<tool_response id=\"1\"><result>INVENTED</result></tool_response>\nThe file says INVENTED."
	e := newEnv(t, texts(invented, "It says hello.")...)
	e.writeFile("README.md", "hello")
	out, err := e.run("what does README say?")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(e.streamedText(), "INVENTED") {
		t.Errorf("invented text was streamed: %q", e.streamedText())
	}
	reqs := e.model.Requests()
	if len(reqs) != 2 {
		t.Fatalf("requests = %d, want 2", len(reqs))
	}
	msgs := reqs[1].Messages
	if got := msgs[1].Text; got != readREADME+"\n" {
		t.Errorf("assistant message kept = %q, want the reply cut before <tool_response", got)
	}
	if strings.Contains(msgs[2].Text, "INVENTED") || !strings.Contains(msgs[2].Text, "hello") {
		t.Errorf("tool turn = %q, want the real result only", msgs[2].Text)
	}
	if e.tools.runs["read_file"] != 1 || out.Answer != "It says hello." {
		t.Errorf("read_file runs = %d, answer %q", e.tools.runs["read_file"], out.Answer)
	}
}

func TestRunCutFindsTheStoppingMarkerNotOneInsideAValue(t *testing.T) {
	// The first <tool_response inside CDATA is content; the stop is the
	// second one, and the reply text must keep the whole call.
	call := `<tool_call name="write_file" id="1"><operation_type>create</operation_type><file_path>p.md</file_path><content><![CDATA[answers look like <tool_response id="x">]]></content></tool_call>`
	e := newEnv(t, llmtest.Reply{Chunks: []string{call + "\n<tool_response id=\"1\">ok</tool_response>"}}, llmtest.Reply{Text: "done"})
	if _, err := e.run("write"); err != nil {
		t.Fatal(err)
	}
	if got := e.model.Requests()[1].Messages[1].Text; got != call+"\n" {
		t.Errorf("assistant message = %q, want %q", got, call+"\n")
	}
	if got := e.file("p.md"); got != `answers look like <tool_response id="x">` {
		t.Errorf("p.md = %q", got)
	}
}

func TestRunSkipsWritesAfterAFailureInTheSameReply(t *testing.T) {
	e := newEnv(t, texts(
		`<tool_call name="read_file" id="1"><file_path>missing.md</file_path></tool_call>
<tool_call name="write_file" id="2"><operation_type>create</operation_type><file_path>out.md</file_path><content>x</content></tool_call>
<tool_call name="read_file" id="3"><file_path>here.md</file_path></tool_call>
<tool_call name="nope" id="4"/>`,
		`<tool_call name="write_file" id="5"><operation_type>create</operation_type><file_path>out.md</file_path><content>x</content></tool_call>`,
		"done",
	)...)
	e.writeFile("here.md", "here")
	if _, err := e.run("go"); err != nil {
		t.Fatal(err)
	}
	want := []string{tools.CodeFileNotFound, tools.CodeSkipped, "", tools.CodeToolUnknown, ""}
	if got := e.codes(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("codes = %q, want %q", got, want)
	}
	if e.tools.runs["write_file"] != 1 {
		t.Errorf("write_file ran %d times, want once (in the second reply)", e.tools.runs["write_file"])
	}
	// All four responses travel in one user turn, in call order.
	turn := e.model.Requests()[1].Messages[2].Text
	last := -1
	for _, id := range []string{`id="1"`, `id="2"`, `id="3"`, `id="4"`} {
		i := strings.Index(turn, "<tool_response "+id)
		if i <= last {
			t.Fatalf("response %s missing or out of order in:\n%s", id, turn)
		}
		last = i
	}
	if !strings.Contains(e.results()[1].Result.Message, "call 1 (read_file) failed") {
		t.Errorf("skip message = %q, want it to name the failed call", e.results()[1].Result.Message)
	}
}

func TestRunStopsAtMaxIterations(t *testing.T) {
	var replies []string
	for i := range 5 {
		replies = append(replies, fmt.Sprintf(`<tool_call name="read_file"><file_path>f%d</file_path></tool_call>`, i))
	}
	e := newEnv(t, texts(replies...)...)
	e.agent.MaxIterations = 3
	out, err := e.run("loop")
	if !errors.Is(err, ErrMaxIterations) {
		t.Fatalf("err = %v, want ErrMaxIterations", err)
	}
	if !out.Stopped || out.Iterations != 3 || len(e.model.Requests()) != 3 {
		t.Errorf("outcome %+v after %d requests, want stopped after 3", out, len(e.model.Requests()))
	}
	last := e.events[len(e.events)-1]
	if last.Type != EventDone || !strings.Contains(last.Text, "stopped after 3") {
		t.Errorf("last event = %+v, want done saying it stopped", last)
	}
	// The last responses are kept in the session, so --continue can go on.
	msgs := e.agent.Session.Messages()
	if n := len(msgs); n != 7 || msgs[n-1].Role != llm.User || !strings.Contains(msgs[n-1].Text, "<tool_response") {
		t.Errorf("session ends with %d messages, last %+v", n, msgs[n-1])
	}
}

func TestRunDefaultMaxIterationsIsTen(t *testing.T) {
	var replies []string
	for i := range 12 {
		replies = append(replies, fmt.Sprintf(`<tool_call name="read_file"><file_path>f%d</file_path></tool_call>`, i))
	}
	e := newEnv(t, texts(replies...)...)
	if _, err := e.run("loop"); !errors.Is(err, ErrMaxIterations) {
		t.Fatalf("err = %v", err)
	}
	if n := len(e.model.Requests()); n != DefaultMaxIterations {
		t.Errorf("requests = %d, want %d", n, DefaultMaxIterations)
	}
}

func TestRunAnswersRepeatedCallsWithToolRepeated(t *testing.T) {
	same := `<tool_call name="read_file" id="1"><file_path>missing.md</file_path></tool_call>`
	// The third copy differs in whitespace only: still the same call.
	e := newEnv(t, texts(same, same, `<tool_call name="read_file" id="1"><file_path> missing.md
</file_path></tool_call>`, same, "giving up")...)
	if _, err := e.run("read it"); err != nil {
		t.Fatal(err)
	}
	want := []string{tools.CodeFileNotFound, tools.CodeFileNotFound, tools.CodeRepeated, tools.CodeRepeated}
	if got := e.codes(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("codes = %q, want %q", got, want)
	}
	if e.tools.runs["read_file"] != 2 {
		t.Errorf("read_file ran %d times, want 2", e.tools.runs["read_file"])
	}
}

func TestRunRepeatCountResetsAfterASuccessfulWrite(t *testing.T) {
	read := `<tool_call name="read_file"><file_path>a.md</file_path></tool_call>`
	appendB := `<tool_call name="write_file"><operation_type>append</operation_type><file_path>a.md</file_path><content>b</content></tool_call>`
	// Two identical reads, then a write, then the same read again: the
	// write may have changed what it returns, so it must run.
	e := newEnv(t, texts(read, read, appendB, read, "ok")...)
	e.writeFile("a.md", "a")
	if _, err := e.run("read"); err != nil {
		t.Fatal(err)
	}
	if got := e.codes(); fmt.Sprint(got) != fmt.Sprint([]string{"", "", "", ""}) {
		t.Errorf("codes = %q, want four successes", got)
	}
	if got := e.results()[3].Result.Content; got != "ab" {
		t.Errorf("last read = %q, want the written content", got)
	}
}

// hookModel calls before(n) ahead of the n-th request (1-based).
type hookModel struct {
	llm.Model
	n      int
	before func(n int)
}

func (h *hookModel) Stream(ctx context.Context, req llm.Request) iter.Seq2[llm.Chunk, error] {
	h.n++
	h.before(h.n)
	return h.Model.Stream(ctx, req)
}

var writeOut = `<tool_call name="write_file" id="w"><operation_type>create</operation_type><file_path>out.md</file_path><content>x</content></tool_call>`

func TestRunApproval(t *testing.T) {
	for _, tc := range []struct {
		name     string
		approval approvalSetup
		code     string
		message  string
	}{
		{"ask without a terminal", approvalSetup{Policy: PolicyAsk, NoOneToAsk: "HINT"}, tools.CodePolicyDenied, "no one to ask; HINT"},
		{"empty policy means ask", approvalSetup{}, tools.CodePolicyDenied, "no one to ask"},
		{"never", approvalSetup{Policy: PolicyNever}, tools.CodePolicyDenied, "allows no writes"},
		{"plan", approvalSetup{Policy: PolicyPlan}, tools.CodePolicyDenied, "plan mode"},
		{"user declines", approvalSetup{Policy: PolicyAsk, Ask: answer(Deny)}, tools.CodePolicyDenied, "declined"},
		{"user allows", approvalSetup{Policy: PolicyAsk, Ask: answer(Allow)}, "", ""},
		{"auto", approvalSetup{Policy: PolicyAuto}, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, texts(writeOut, "ok")...)
			e.agent.Approval = tc.approval.approval()
			if _, err := e.run("write"); err != nil {
				t.Fatal(err)
			}
			rs := e.results()
			if len(rs) != 1 || rs[0].Result.Code != tc.code || !strings.Contains(rs[0].Result.Message, tc.message) {
				t.Fatalf("results = %+v, want code %q mentioning %q", rs, tc.code, tc.message)
			}
			if wrote := e.exists("out.md"); wrote != (tc.code == "") {
				t.Errorf("file written = %v, want %v", wrote, tc.code == "")
			}
		})
	}
}

func TestRunApprovalAlwaysLastsTheConversation(t *testing.T) {
	asked := 0
	e := newEnv(t, texts(
		writeOut,
		`<tool_call name="write_file"><operation_type>create</operation_type><file_path>two.md</file_path><content>y</content></tool_call>`,
		"ok",
		`<tool_call name="write_file"><operation_type>create</operation_type><file_path>three.md</file_path><content>z</content></tool_call>`,
		"ok again")...)
	e.agent.Approval = approvalSetup{Policy: PolicyAsk, Ask: AskFunc(func(context.Context, Question) (Answer, error) {
		asked++
		return Answer{Decision: AllowAlways}, nil
	})}.approval()
	if _, err := e.run("write"); err != nil {
		t.Fatal(err)
	}
	// A second request of the same conversation: "always" still holds.
	if _, err := e.run("write more"); err != nil {
		t.Fatal(err)
	}
	if asked != 1 || e.tools.runs["write_file"] != 3 {
		t.Errorf("asked %d times, wrote %d times; want 1 and 3", asked, e.tools.runs["write_file"])
	}
}

func TestRunDeclineWithReasonReachesTheModelAndLaterWritesAreAsked(t *testing.T) {
	var asked []string
	e := newEnv(t, texts(
		writeOut+`<tool_call name="write_file" id="w2"><operation_type>create</operation_type><file_path>two.md</file_path><content>y</content></tool_call>`,
		"ok")...)
	e.agent.Approval = approvalSetup{Policy: PolicyAsk, Ask: AskFunc(func(_ context.Context, q Question) (Answer, error) {
		asked = append(asked, q.Call.ID)
		if q.Call.ID == "w" {
			return Answer{Decision: Deny, Reason: "use the existing helper"}, nil
		}
		return Answer{Decision: Allow}, nil
	})}.approval()
	if _, err := e.run("write"); err != nil {
		t.Fatal(err)
	}
	rs := e.results()
	if len(asked) != 2 || len(rs) != 2 {
		t.Fatalf("asked about %v, results %+v; want both writes asked", asked, rs)
	}
	if rs[0].Result.Code != tools.CodePolicyDenied || !strings.Contains(rs[0].Result.Message, "use the existing helper") {
		t.Errorf("first result = %+v, want a refusal carrying the reason", rs[0].Result)
	}
	if rs[1].Result.Code != "" || !e.exists("two.md") {
		t.Errorf("second result = %+v, want it run after a person's no", rs[1].Result)
	}
}

func TestRunPolicyRefusalSkipsLaterWrites(t *testing.T) {
	e := newEnv(t, texts(
		writeOut+`<tool_call name="write_file" id="w2"><operation_type>create</operation_type><file_path>two.md</file_path><content>y</content></tool_call>`,
		"ok")...)
	e.agent.Approval = approvalSetup{Policy: PolicyNever}.approval()
	if _, err := e.run("write"); err != nil {
		t.Fatal(err)
	}
	if got := e.codes(); strings.Join(got, ",") != tools.CodePolicyDenied+","+tools.CodeSkipped {
		t.Errorf("codes = %q, want denied then skipped", got)
	}
}

func TestSetPolicyBetweenTurns(t *testing.T) {
	e := newEnv(t, texts(writeOut, "planned", writeOut, "done")...)
	e.agent.Approval.SetPolicy(PolicyPlan)
	if _, err := e.run("plan it"); err != nil {
		t.Fatal(err)
	}
	if e.exists("out.md") {
		t.Fatal("plan mode wrote a file")
	}
	e.agent.Approval.SetPolicy(PolicyAuto)
	if _, err := e.run("do it"); err != nil {
		t.Fatal(err)
	}
	if !e.exists("out.md") || e.agent.Approval.Policy() != PolicyAuto {
		t.Errorf("auto after plan: file written %v, policy %s", e.exists("out.md"), e.agent.Approval.Policy())
	}
}

func TestRunReadsNeedNoApproval(t *testing.T) {
	e := newEnv(t, texts(readREADME, "ok")...)
	e.agent.Approval = approvalSetup{Policy: PolicyNever}.approval()
	e.writeFile("README.md", "r")
	if _, err := e.run("read"); err != nil {
		t.Fatal(err)
	}
	if got := e.codes(); len(got) != 1 || got[0] != "" {
		t.Errorf("codes = %q, want the read to run", got)
	}
}

func answer(d Decision) Asker {
	return AskFunc(func(context.Context, Question) (Answer, error) { return Answer{Decision: d}, nil })
}

func TestRunAsksAgainOnceWhenTheStreamDropsBeforeACall(t *testing.T) {
	drop := &llm.DropError{Provider: "test", Received: 10, Err: errors.New("connection reset")}
	e := newEnv(t,
		llmtest.Reply{Text: "Let me look <tool_call name=\"read", Err: drop},
		llmtest.Reply{Text: readREADME},
		llmtest.Reply{Text: "fine"},
	)
	e.writeFile("README.md", "r")
	out, err := e.run("go")
	if err != nil {
		t.Fatal(err)
	}
	var retries int
	for _, ev := range e.events {
		if ev.Type == EventRetry {
			retries++
			if ev.Retry == nil || ev.Retry.Reason != "stream_dropped" {
				t.Errorf("retry event = %+v, want reason stream_dropped", ev.Retry)
			}
		}
	}
	if retries != 1 || len(e.model.Requests()) != 3 || out.Answer != "fine" {
		t.Errorf("retries %d, requests %d, answer %q", retries, len(e.model.Requests()), out.Answer)
	}
	// The dropped partial reply is not part of the conversation.
	for _, m := range e.model.Requests()[2].Messages {
		if strings.Contains(m.Text, "Let me look") {
			t.Errorf("dropped text kept in the conversation: %q", m.Text)
		}
	}
}

func TestRunDoesNotReplayADroppedStreamThatHeldACall(t *testing.T) {
	drop := &llm.DropError{Provider: "test", Received: 10, Err: errors.New("connection reset")}
	e := newEnv(t,
		llmtest.Reply{Text: readREADME + "\n<tool_call name=\"write_file\" id=\"2\"><operation_type>create</operation_type><file_path>half.md</file_path><content>half", Err: drop},
		llmtest.Reply{Text: "ok"},
	)
	e.writeFile("README.md", "r")
	if _, err := e.run("go"); err != nil {
		t.Fatal(err)
	}
	if got := e.codes(); fmt.Sprint(got) != fmt.Sprint([]string{"", tools.CodeCallIncomplete}) {
		t.Errorf("codes = %q, want the complete call run and the cut one incomplete", got)
	}
	if len(e.model.Requests()) != 2 || e.tools.runs["write_file"] != 0 {
		t.Errorf("requests %d, writes %d", len(e.model.Requests()), e.tools.runs["write_file"])
	}
}

func TestRunFailsWhenTheStreamDropsTwice(t *testing.T) {
	drop := &llm.DropError{Provider: "test", Received: 3, Err: errors.New("reset")}
	e := newEnv(t, llmtest.Reply{Text: "abc", Err: drop}, llmtest.Reply{Text: "abc", Err: drop})
	_, err := e.run("go")
	if !errors.Is(err, llm.ErrStreamDropped) {
		t.Fatalf("err = %v, want a dropped stream", err)
	}
	if last := e.events[len(e.events)-1]; last.Type != EventError {
		t.Errorf("last event = %v, want error", last.Type)
	}
}

func TestRunProviderErrorEndsTheRun(t *testing.T) {
	boom := errors.New("provider down")
	e := newEnv(t, llmtest.Reply{Err: boom})
	_, err := e.run("go")
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want the provider's error", err)
	}
	if len(e.model.Requests()) != 1 {
		t.Errorf("requests = %d: a provider error is not re-asked by the loop", len(e.model.Requests()))
	}
}

func TestRunEmptyReplyIsAnError(t *testing.T) {
	e := newEnv(t, llmtest.Reply{Finish: "safety"})
	if _, err := e.run("go"); !errors.Is(err, ErrEmptyReply) || !strings.Contains(err.Error(), "safety") {
		t.Fatalf("err = %v, want ErrEmptyReply naming the finish reason", err)
	}
}

func TestRunEmptyPrompt(t *testing.T) {
	e := newEnv(t)
	if _, err := e.run("  \n"); !errors.Is(err, ErrEmptyPrompt) {
		t.Fatalf("err = %v", err)
	}
}

func TestRunCancelStopsABlockedStream(t *testing.T) {
	e := newEnv(t, llmtest.Reply{Text: "thinking", Block: true})
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := e.agent.Run(ctx, "go", nil)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err = %v, want the context's error", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after its context ended")
	}
}

func TestRunReportsUsage(t *testing.T) {
	e := newEnv(t,
		llmtest.Reply{Text: readREADME, Usage: &llm.Usage{InputTokens: 100, OutputTokens: 20}},
		llmtest.Reply{Text: "ok", Usage: &llm.Usage{InputTokens: 150, OutputTokens: 5, CachedTokens: 90}},
	)
	e.writeFile("README.md", "r")
	out, err := e.run("go")
	if err != nil {
		t.Fatal(err)
	}
	if want := (llm.Usage{InputTokens: 250, OutputTokens: 25, CachedTokens: 90}); out.Usage != want {
		t.Errorf("Usage = %+v, want %+v", out.Usage, want)
	}
	var n int
	for _, ev := range e.events {
		if ev.Type == EventUsage {
			n++
		}
	}
	if n != 2 {
		t.Errorf("usage events = %d, want one per model call", n)
	}
}

func TestRunAutoApprovedWritesAreNotAsked(t *testing.T) {
	e := newEnv(t, texts(`<tool_call name="note" id="n"><text>remember this</text></tool_call>`, "ok")...)
	noted := 0
	note := tools.New("note", "Keep a note.", func(context.Context, struct {
		Text string `json:"text"`
	}) (tools.Result, error) {
		noted++
		return tools.Result{Message: "noted"}, nil
	}, tools.Writes(), tools.NoApproval())
	e.agent.Tools = tools.NewRegistry(note)
	asked := 0
	e.agent.Approval = approvalSetup{Policy: PolicyAsk, Ask: AskFunc(func(context.Context, Question) (Answer, error) {
		asked++
		return Answer{}, nil
	})}.approval()
	if _, err := e.run("note it"); err != nil {
		t.Fatal(err)
	}
	if asked != 0 || noted != 1 {
		t.Errorf("asked %d times, noted %d; want 0 and 1", asked, noted)
	}
	// Plan mode still refuses it: it is a write.
	e2 := newEnv(t, texts(`<tool_call name="note" id="n"><text>x</text></tool_call>`, "ok")...)
	e2.agent.Tools = tools.NewRegistry(note)
	e2.agent.Approval.SetPolicy(PolicyPlan)
	if _, err := e2.run("note it"); err != nil {
		t.Fatal(err)
	}
	if noted != 1 {
		t.Errorf("plan mode ran an auto-approved write")
	}
}

func TestRunEndsAnEndlessReply(t *testing.T) {
	huge := `<tool_call name="write_file" id="w"><operation_type>create</operation_type><file_path>out.md</file_path><content>` +
		strings.Repeat("A", maxReplyBytes+1024)
	e := newEnv(t, texts(huge, "sorry")...)
	e.agent.Approval = approvalSetup{Policy: PolicyAuto}.approval()
	if _, err := e.run("write"); err != nil {
		t.Fatal(err)
	}
	if got := e.codes(); len(got) != 1 || got[0] != tools.CodeCallIncomplete {
		t.Errorf("codes = %q, want the cut-off write answered CALL_INCOMPLETE", got)
	}
	if e.exists("out.md") {
		t.Error("a write from an endless reply touched a file")
	}
}
