package agent

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent/hooks"
	"github.com/agentcli/agent/tools"
)

// withHooks gives e's agent the hooks list, run with sh in its folder.
func (e *env) withHooks(list ...hooks.Hook) {
	e.t.Helper()
	for i := range list {
		list[i].Origin = "config.toml"
	}
	r, err := hooks.New(list, hooks.Options{Dir: e.root, Start: func(h hooks.Hook, env []string) (*exec.Cmd, error) {
		cmd := exec.Command("sh", "-c", h.Command)
		cmd.Dir = e.root
		cmd.Env = append(os.Environ(), env...)
		return cmd, nil
	}})
	if err != nil {
		e.t.Fatal(err)
	}
	e.agent.Hooks = r
}

// lastRequest is the text of the last user message the model was sent.
func (e *env) lastRequest() string {
	reqs := e.model.Requests()
	msgs := reqs[len(reqs)-1].Messages
	return msgs[len(msgs)-1].Text
}

// hookEvents are the texts of the hook events.
func (e *env) hookEvents() []string {
	var out []string
	for _, ev := range e.events {
		if ev.Type == EventHook {
			out = append(out, ev.Text)
		}
	}
	return out
}

// A PreToolUse hook that exits 2 refuses the write, whatever the policy
// (auto here): the file is not written, the model's next request carries
// the hook's reason, the person sees one line on the call, and the audit
// log has the decision.
func TestHookBlocksAWrite(t *testing.T) {
	e := newEnv(t, texts(writeOut, "ok")...)
	e.withHooks(hooks.Hook{Event: hooks.PreToolUse, Matcher: "Write", Command: "echo 'the docs are frozen' >&2; exit 2"})
	if _, err := e.run("write"); err != nil {
		t.Fatal(err)
	}
	if e.exists("out.md") {
		t.Error("the blocked write was made")
	}
	rs := e.results()
	if len(rs) != 1 || rs[0].Result.Code != tools.CodePolicyDenied || rs[0].DecidedBy != "hook" || !rs[0].ByPolicy {
		t.Fatalf("results %+v, want the write refused by the hook", rs)
	}
	if req := e.lastRequest(); !strings.Contains(req, "the hook echo refused it: the docs are frozen") {
		t.Errorf("the next request does not carry the reason:\n%s", req)
	}
	var hookEv *Event
	for i := range e.events {
		if e.events[i].Type == EventHook {
			hookEv = &e.events[i]
		}
	}
	if hookEv == nil || hookEv.Text != "hook echo blocked write_file: the docs are frozen" || hookEv.Call == nil || hookEv.Call.ID != "w" {
		t.Errorf("hook event %+v, want the line on the call", hookEv)
	}
	var lines []map[string]any
	for _, l := range readJSONL(t, filepath.Join(e.root, AuditFile)) {
		if l["hook"] != nil {
			lines = append(lines, l)
		}
	}
	if len(lines) != 1 || lines[0]["event"] != "PreToolUse" || lines[0]["outcome"] != "blocked" || lines[0]["call_id"] != "w" || lines[0]["detail"] != "the docs are frozen" {
		t.Errorf("audit lines of hooks %v", lines)
	}
}

// A hook's allow answers for the person as an allow rule does, and its
// ask puts the call to the person even under the auto policy.
func TestHookAllowAndAsk(t *testing.T) {
	allow := `echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'`
	e := newEnv(t, texts(writeOut, "ok")...)
	e.agent.Approval = approvalSetup{Policy: PolicyAsk}.approval() // no one to ask
	e.withHooks(hooks.Hook{Event: hooks.PreToolUse, Command: allow})
	if _, err := e.run("write"); err != nil {
		t.Fatal(err)
	}
	if rs := e.results(); len(rs) != 1 || rs[0].Result.IsError() || rs[0].DecidedBy != "hook" || rs[0].Rule != "hook echo" || !e.exists("out.md") {
		t.Fatalf("allow: results %+v, want the write run on the hook's word", rs)
	}

	ask := `echo '{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"a person should see this"}}'`
	var asked []Question
	e = newEnv(t, texts(writeOut, "ok")...)
	e.agent.Approval = approvalSetup{Policy: PolicyAuto, Ask: AskFunc(func(_ context.Context, q Question) (Answer, error) {
		asked = append(asked, q)
		return Answer{Decision: Deny}, nil
	})}.approval()
	e.withHooks(hooks.Hook{Event: hooks.PreToolUse, Command: ask})
	if _, err := e.run("write"); err != nil {
		t.Fatal(err)
	}
	if len(asked) != 1 || !strings.Contains(strings.Join(asked[0].Preview.Lines, "\n"), "the hook echo asks: a person should see this") || e.exists("out.md") {
		t.Errorf("ask under auto: asked %+v, want the person asked and the answer kept", asked)
	}
}

// A hook's allow never passes a deny rule, nor a tool only a person's yes
// runs.
func TestHookAllowStopsAtDenyAndConsent(t *testing.T) {
	allow := `echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'`
	denyAll := Permissions{Deny: []Rule{{Text: "*", Covers: func(Question) bool { return true }}}}
	e := newEnv(t, texts(writeOut, "ok")...)
	e.agent.Approval = approvalSetup{Policy: PolicyAsk, Permissions: denyAll}.approval()
	e.withHooks(hooks.Hook{Event: hooks.PreToolUse, Command: allow})
	e.run("write")
	if rs := e.results(); len(rs) != 1 || rs[0].DecidedBy != "permissions.deny" || e.exists("out.md") {
		t.Errorf("deny rule: results %+v, want it refused by the rule", rs)
	}

	e = newEnv(t, texts(writeOut, "ok")...)
	reg := tools.NewRegistry()
	for _, tool := range e.tools.registry().Tools() {
		if tool.Definition().Writes {
			tool = consentTool{tool}
		}
		reg.Add(tool)
	}
	e.agent.Tools = reg
	var asked int
	e.agent.Approval = approvalSetup{Policy: PolicyAuto, Ask: AskFunc(func(context.Context, Question) (Answer, error) {
		asked++
		return Answer{Decision: Allow}, nil
	})}.approval()
	e.withHooks(hooks.Hook{Event: hooks.PreToolUse, Command: allow})
	e.run("write")
	if rs := e.results(); len(rs) != 1 || rs[0].DecidedBy != "person" || asked != 1 {
		t.Errorf("consent: results %+v, asked %d; want the person asked all the same", rs, asked)
	}
}

// updatedInput changes what runs: validated again, shown in the call's
// parameters; one that is not valid runs nothing.
func TestHookChangesTheInput(t *testing.T) {
	change := `echo '{"hookSpecificOutput":{"updatedInput":{"file_path":"moved.md"}}}'`
	e := newEnv(t, texts(writeOut, "ok")...)
	e.withHooks(hooks.Hook{Event: hooks.PreToolUse, Matcher: "write_file", Command: change})
	if _, err := e.run("write"); err != nil {
		t.Fatal(err)
	}
	if e.exists("out.md") || e.file("moved.md") != "x" {
		t.Error("the write did not go where the hook sent it")
	}
	rs := e.results()
	if len(rs) != 1 || rs[0].Result.IsError() || paramMap(rs[0].Params)["file_path"] != "moved.md" {
		t.Errorf("results %+v, want the changed input recorded", rs)
	}
	if hs := e.hookEvents(); len(hs) != 1 || hs[0] != "hook echo changed the input of write_file: file_path = moved.md" {
		t.Errorf("hook events %q", hs)
	}

	bad := `echo '{"hookSpecificOutput":{"updatedInput":{"operation_type":"shred"}}}'`
	e = newEnv(t, texts(writeOut, "ok")...)
	e.withHooks(hooks.Hook{Event: hooks.PreToolUse, Command: bad})
	e.run("write")
	if rs := e.results(); len(rs) != 1 || rs[0].Result.Code != tools.CodeSchemaInvalid || !strings.Contains(rs[0].Result.Message, "the hook echo changed its input into one that is not valid") || e.exists("out.md") {
		t.Errorf("results %+v, want the invalid input refused", rs)
	}
}

// A PostToolUse hook reads the call's tool_name, tool_input and
// tool_response; what it answers follows the responses to the model.
func TestPostToolUseSeesTheCall(t *testing.T) {
	e := newEnv(t, texts(writeOut, "ok")...)
	e.withHooks(hooks.Hook{Event: hooks.PostToolUse, Command: `cat > .seen.json; echo '{"hookSpecificOutput":{"additionalContext":"remember to run the linter"}}'`})
	if _, err := e.run("write"); err != nil {
		t.Fatal(err)
	}
	var seen struct {
		Event     string         `json:"hook_event_name"`
		Tool      string         `json:"tool_name"`
		Input     map[string]any `json:"tool_input"`
		Response  map[string]any `json:"tool_response"`
		SessionID string         `json:"session_id"`
	}
	if err := json.Unmarshal([]byte(e.file(".seen.json")), &seen); err != nil {
		t.Fatal(err)
	}
	if seen.Event != "PostToolUse" || seen.Tool != "write_file" || seen.Input["file_path"] != "out.md" || seen.Input["content"] != "x" || seen.Response["message"] != "create out.md" || seen.SessionID != e.agent.Session.ID {
		t.Errorf("the hook saw %+v", seen)
	}
	if req := e.lastRequest(); !strings.Contains(req, "[From the hook cat, about write_file call w:]\n\nremember to run the linter") {
		t.Errorf("the next request lacks the hook's context:\n%s", req)
	}
}

// A PreToolUse hook decides about calls that only read, too.
func TestHookDeniesARead(t *testing.T) {
	e := newEnv(t, texts(`<tool_call name="read_file" id="r"><file_path>secret.txt</file_path></tool_call>`, "ok")...)
	e.writeFile("secret.txt", "s3cret")
	e.withHooks(hooks.Hook{Event: hooks.PreToolUse, Matcher: "Read", Command: `echo '{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"not that one"}}'`})
	e.run("read")
	if rs := e.results(); len(rs) != 1 || rs[0].Result.Code != tools.CodePolicyDenied || e.tools.runs["read_file"] != 0 {
		t.Errorf("results %+v, want the read refused", rs)
	}
}

// A Stop hook that blocks keeps the model going with its reason, at most
// three times in a row; then the turn ends, saying so.
func TestStopHookGoesOnThreeTimes(t *testing.T) {
	e := newEnv(t, texts("one", "two", "three", "four", "five")...)
	e.agent.MaxIterations = 10
	e.withHooks(hooks.Hook{Event: hooks.Stop, Command: `echo 'the tests fail' >&2; exit 2`})
	out, err := e.run("go")
	if err != nil {
		t.Fatal(err)
	}
	if out.Answer != "four" || out.Iterations != 4 {
		t.Errorf("answer %q after %d model calls, want the fourth", out.Answer, out.Iterations)
	}
	if req := e.lastRequest(); !strings.Contains(req, "did not let you stop yet") || !strings.Contains(req, "the tests fail") {
		t.Errorf("the model was not told why:\n%s", req)
	}
	hs := e.hookEvents()
	if len(hs) != 4 || hs[0] != "hook echo kept the model going: the tests fail" || !strings.Contains(hs[3], "hook echo failed on Stop: it asked to go on more than 3 times in a row, which is not followed") {
		t.Errorf("hook events %q", hs)
	}
}

// A sub-agent's loop given its parent's hooks fires its calls' PreToolUse
// and PostToolUse, not a Stop of its own.
func TestSubAgentFiresToolHooksOnly(t *testing.T) {
	e := newEnv(t, texts(writeOut, "found it")...)
	e.withHooks(
		hooks.Hook{Event: hooks.PreToolUse, Command: "echo 'not from a sub-agent' >&2; exit 2"},
		hooks.Hook{Event: hooks.Stop, Command: "echo 'go on' >&2; exit 2"},
	)
	e.agent.Sub = true
	out, err := e.run("look")
	if err != nil {
		t.Fatal(err)
	}
	if rs := e.results(); len(rs) != 1 || rs[0].DecidedBy != "hook" || out.Answer != "found it" || out.Iterations != 2 {
		t.Errorf("results %+v, answer %q after %d calls; want the write refused and no Stop", rs, out.Answer, out.Iterations)
	}
}

// A hook's "continue": false ends the turn: the call is not run, the run
// stops with the hook's reason.
func TestHookEndsTheTurn(t *testing.T) {
	e := newEnv(t, texts(writeOut, "never")...)
	e.withHooks(hooks.Hook{Event: hooks.PreToolUse, Command: `echo '{"continue":false,"stopReason":"the release is frozen"}'`})
	_, err := e.run("write")
	var halt *HaltError
	if !errors.As(err, &halt) || !strings.Contains(halt.Reason, "the hook echo ended it: the release is frozen") {
		t.Fatalf("err %v, want the turn ended by the hook", err)
	}
	if e.exists("out.md") || e.model.Remaining() != 1 {
		t.Errorf("the call ran, or the model was asked again")
	}
}
