package hooks

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// shell starts a hook as the person's hooks start: sh -c in the folder.
func shell(dir string) func(Hook, []string) (*exec.Cmd, error) {
	return func(h Hook, env []string) (*exec.Cmd, error) {
		cmd := exec.Command("sh", "-c", h.Command)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), env...)
		return cmd, nil
	}
}

func runner(t *testing.T, list ...Hook) (*Runner, string) {
	t.Helper()
	dir := t.TempDir()
	r, err := New(list, Options{Dir: dir, Start: shell(dir)})
	if err != nil {
		t.Fatal(err)
	}
	return r, dir
}

func writeInput(path, content string) map[string]any {
	return map[string]any{"operation_type": "create", "file_path": path, "content": content}
}

// A hook that exits 2 blocks the call with its standard error as the
// reason; the matcher takes Claude Code's names for the tool.
func TestExitTwoBlocks(t *testing.T) {
	r, _ := runner(t, Hook{Event: PreToolUse, Matcher: "Write", Command: "echo 'no writes here' >&2; exit 2", Origin: "cfg"})
	o := r.Fire(t.Context(), Input{Event: PreToolUse, Tool: "write_file", ToolInput: writeInput("a.txt", "x")})
	if !o.Block || o.Decision != "deny" || o.Reason != "no writes here" || o.By != "echo" {
		t.Fatalf("outcome %+v, want a block with the reason", o)
	}
	if len(o.Reports) != 1 || o.Reports[0].Text() != "hook echo blocked write_file: no writes here" {
		t.Errorf("reports %+v", o.Reports)
	}
	// Another tool does not match.
	if o := r.Fire(t.Context(), Input{Event: PreToolUse, Tool: "run_command", ToolInput: map[string]any{"command": "ls"}}); o.Block || len(o.Reports) > 0 {
		t.Errorf("run_command: %+v, want nothing", o)
	}
}

// The hook reads one JSON object with the fields of Claude Code's
// contract; in the claude format, its names and absolute paths.
func TestPayload(t *testing.T) {
	for _, tc := range []struct {
		claude     bool
		tool, path string
	}{{false, "write_file", "src/a.go"}, {true, "Write", "/src/a.go"}} {
		r, dir := runner(t, Hook{Event: PreToolUse, Command: "cat > seen.json", Claude: tc.claude})
		r.Fire(t.Context(), Input{Event: PreToolUse, SessionID: "s1", TranscriptPath: "/t.jsonl", Tool: "write_file", ToolInput: writeInput("src/a.go", "package a")})
		b, err := os.ReadFile(filepath.Join(dir, "seen.json"))
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		in, _ := m["tool_input"].(map[string]any)
		want := tc.path
		if tc.claude {
			want = dir + tc.path
		}
		if m["session_id"] != "s1" || m["transcript_path"] != "/t.jsonl" || m["cwd"] != dir || m["hook_event_name"] != "PreToolUse" || m["tool_name"] != tc.tool || in["file_path"] != want || in["content"] != "package a" {
			t.Errorf("claude %v: payload %s", tc.claude, b)
		}
	}
}

// Hooks run at once, and their results apply in config order: the first
// deny's reason comes first, though it ends last. Each hook waits for the
// other to have started, which only hooks run at once can do.
func TestParallelInConfigOrder(t *testing.T) {
	wait := func(mine, theirs string) string {
		return "touch " + mine + "; i=0; while [ ! -e " + theirs + " ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done; [ -e " + theirs + " ] || exit 1; "
	}
	r, _ := runner(t,
		Hook{Event: PreToolUse, Command: wait("a", "b") + "sleep 0.2; echo first >&2; exit 2"},
		Hook{Event: PreToolUse, Command: wait("b", "a") + "echo second >&2; exit 2"},
	)
	o := r.Fire(t.Context(), Input{Event: PreToolUse, Tool: "run_command", ToolInput: map[string]any{"command": "ls"}})
	if o.Reason != "first\nsecond" || o.By != "touch" {
		t.Errorf("reason %q by %q, want first then second, by the first; reports %+v", o.Reason, o.By, o.Reports)
	}
}

// permissionDecision: deny beats ask beats allow; updatedInput, in the
// claude format, comes back in the agent's names.
func TestJSONDecisions(t *testing.T) {
	allow := `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"docs are fine"}}'`
	ask := `echo '{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"check it"}}'`
	r, _ := runner(t, Hook{Event: PreToolUse, Command: allow}, Hook{Event: PreToolUse, Command: ask})
	o := r.Fire(t.Context(), Input{Event: PreToolUse, Tool: "write_file", ToolInput: writeInput("a.md", "x")})
	if o.Decision != "ask" || o.DecisionReason != "check it" || o.Block {
		t.Errorf("outcome %+v, want ask", o)
	}

	change := `echo '{"hookSpecificOutput":{"permissionDecision":"allow","updatedInput":{"file_path":"'"$PWD"'/b.md","content":"new"}}}'`
	r, _ = runner(t, Hook{Event: PreToolUse, Command: change, Claude: true})
	o = r.Fire(t.Context(), Input{Event: PreToolUse, Tool: "write_file", ToolInput: writeInput("a.md", "old")})
	if o.Input["file_path"] != "b.md" || o.Input["content"] != "new" || o.Input["operation_type"] != "create" || o.Decision != "allow" {
		t.Errorf("input %v decision %q, want b.md with the new content", o.Input, o.Decision)
	}
	if len(o.Reports) != 2 || o.Reports[1].Action != ActionChanged || !strings.Contains(o.Reports[1].Detail, "file_path = b.md") {
		t.Errorf("reports %+v", o.Reports)
	}
}

// A hook past its time limit is killed with its whole process group,
// and the work goes on.
func TestTimeoutKillsTheGroup(t *testing.T) {
	r, dir := runner(t, Hook{Event: Notification, Command: "(sleep 5; touch late) & sleep 5", Timeout: 200 * time.Millisecond})
	o := r.Fire(t.Context(), Input{Event: Notification, Message: "waiting"})
	if len(o.Reports) != 1 || o.Reports[0].Action != ActionFailed || !strings.Contains(o.Reports[0].Detail, "timed out after 200ms") {
		t.Fatalf("reports %+v, want a timeout", o.Reports)
	}
	out, _ := exec.Command("pgrep", "-f", "touch late").Output()
	if len(out) > 0 {
		t.Errorf("the hook's background child still runs: %s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "late")); err == nil {
		t.Error("the background child ran on")
	}
}

// Output is bounded: a hook that writes without end neither fills the
// memory nor the model's context.
func TestOutputBounded(t *testing.T) {
	r, _ := runner(t, Hook{Event: UserPromptSubmit, Command: "head -c 1000000 /dev/zero | tr '\\0' x"})
	o := r.Fire(t.Context(), Input{Event: UserPromptSubmit, Prompt: "hi"})
	if len(o.Notes) != 1 || len(o.Notes[0].Text) > maxNote+100 || !strings.Contains(o.Notes[0].Text, "more bytes cut") {
		t.Fatalf("notes %d, first %d bytes", len(o.Notes), len(o.Notes[0].Text))
	}
}

// Any exit but 0 and 2 is a failure shown to the person; nothing is
// blocked. Stop's "block" keeps the model going.
func TestFailureAndStop(t *testing.T) {
	r, _ := runner(t,
		Hook{Event: Stop, Command: "echo broken >&2; exit 3"},
		Hook{Event: Stop, Command: `echo '{"decision":"block","reason":"run the tests first"}'`},
	)
	o := r.Fire(context.Background(), Input{Event: Stop, Answer: "done"})
	if !o.Block || o.Reason != "run the tests first" {
		t.Errorf("outcome %+v, want the model kept going", o)
	}
	if len(o.Reports) != 2 || o.Reports[0].Text() != "hook echo failed on Stop: exit status 3: broken" || o.Reports[1].Action != ActionGoOn {
		t.Errorf("reports %+v", o.Reports)
	}
}

func TestBadMatcher(t *testing.T) {
	if _, err := New([]Hook{{Event: PreToolUse, Matcher: "(", Command: "true"}}, Options{}); err == nil {
		t.Error("a matcher that is no regular expression was taken")
	}
}

func TestMatcherIsWhole(t *testing.T) {
	r, _ := runner(t, Hook{Event: PreToolUse, Matcher: "Edit", Command: "exit 2"})
	if o := r.Fire(t.Context(), Input{Event: PreToolUse, Tool: "notebook_edit"}); o.Block {
		t.Error("Edit matched a tool whose name only holds it")
	}
	r, _ = runner(t, Hook{Event: PreToolUse, Matcher: "mcp__srv__.*", Command: "exit 2"})
	if o := r.Fire(t.Context(), Input{Event: PreToolUse, Tool: "mcp__srv__greet"}); !o.Block {
		t.Error("mcp__srv__.* did not match mcp__srv__greet")
	}
}
