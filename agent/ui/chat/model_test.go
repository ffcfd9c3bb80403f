package chat

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/llm/llmtest"
	"github.com/agentcli/agent/tools/sandbox"
)

func reply(s string) llmtest.Reply { return llmtest.Reply{Text: s} }

func TestQuestionAnswered(t *testing.T) {
	b := newTestConv(t, reply("Here is the answer: **forty-two**.\n\n```go\nfunc main() {}\n```\n"))
	h := newHarness(t, b, Options{})
	h.say("what is it?")
	h.until("the answer", func() bool { return h.idle() && strings.Contains(h.printed(), "forty-two") })
	out := h.printed()
	for _, want := range []string{"› what is it?", "Here is the answer: forty-two.", "╭ go", "│ func main() {}"} {
		if !strings.Contains(out, want) {
			t.Errorf("scrollback lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "**") {
		t.Errorf("markdown left unrendered:\n%s", out)
	}
	if v := h.view(); !strings.Contains(v, "script/test-model") || !strings.Contains(v, b.Info().Folder) {
		t.Errorf("status line lacks model or folder:\n%s", v)
	}
}

func TestReadShownAsCard(t *testing.T) {
	b := newTestConv(t,
		reply(`Let me look.<tool_call name="read_file"><file_path>notes.txt</file_path></tool_call>`),
		reply("The file says hello."))
	b.write(t, "notes.txt", "hello\n")
	h := newHarness(t, b, Options{})
	h.say("read notes.txt")
	h.until("the answer", func() bool { return h.idle() && strings.Contains(h.printed(), "The file says hello.") })
	out := h.printed()
	i, j := strings.Index(out, "read_file notes.txt"), strings.Index(out, "The file says hello.")
	if i < 0 || !strings.Contains(out[i:], "✓") {
		t.Fatalf("no finished read card:\n%s", out)
	}
	if i > j || strings.Index(out, "Let me look.") > i {
		t.Errorf("scrollback out of order:\n%s", out)
	}
	h.press('o', tea.ModCtrl)
	h.settle()
	if !strings.Contains(h.printed(), "│ hello") {
		t.Errorf("ctrl+o did not show the full result:\n%s", h.printed())
	}
}

const writeCall = `<tool_call name="write_file"><operation_type>rewrite</operation_type><file_path>a.txt</file_path><content>new
</content></tool_call>`

func TestWriteApproved(t *testing.T) {
	b := newTestConv(t,
		reply(`<tool_call name="read_file"><file_path>a.txt</file_path></tool_call>`),
		reply(writeCall), reply("Rewritten."))
	b.write(t, "a.txt", "old\n")
	h := newHarness(t, b, Options{})
	h.say("rewrite a.txt")
	h.until("the question", func() bool { return h.m.ask != nil })
	v := h.view()
	if !strings.Contains(v, "Allow write_file?") || !strings.Contains(v, "+new") || !strings.Contains(v, "always") {
		t.Fatalf("dialog lacks the call, diff or keys:\n%s", v)
	}
	h.typeText("y")
	h.until("the answer", func() bool { return h.idle() && strings.Contains(h.printed(), "Rewritten.") })
	if got := b.read(t, "a.txt"); got != "new\n" {
		t.Errorf("a.txt = %q after yes", got)
	}
	if !strings.Contains(h.printed(), "write_file a.txt") {
		t.Errorf("no write card:\n%s", h.printed())
	}
}

func TestWriteDeniedWithReason(t *testing.T) {
	b := newTestConv(t,
		reply(`<tool_call name="read_file"><file_path>a.txt</file_path></tool_call>`),
		reply(writeCall), reply("Understood."))
	b.write(t, "a.txt", "old\n")
	h := newHarness(t, b, Options{})
	h.say("rewrite a.txt")
	h.until("the question", func() bool { return h.m.ask != nil })
	h.typeText("r")
	h.typeText("keep it")
	if v := h.view(); !strings.Contains(v, "Why not?") || !strings.Contains(v, "keep it") {
		t.Fatalf("reason not being typed:\n%s", v)
	}
	h.press(tea.KeyEnter)
	h.until("the answer", func() bool { return h.idle() && strings.Contains(h.printed(), "Understood.") })
	if got := b.read(t, "a.txt"); got != "old\n" {
		t.Errorf("a.txt = %q after no", got)
	}
	if !strings.Contains(h.printed(), "TOOL_POLICY_DENIED") {
		t.Errorf("denied card not shown:\n%s", h.printed())
	}
	reqs := b.script.Requests()
	if last := reqs[len(reqs)-1].Messages; !strings.Contains(last[len(last)-1].Text, "TOOL_POLICY_DENIED") {
		t.Errorf("the model was not told of the denial")
	}
}

func TestStopMidStreamThenNextMessage(t *testing.T) {
	b := newTestConv(t,
		llmtest.Reply{Text: "I am writing a long", Block: true},
		reply("Second answer."))
	h := newHarness(t, b, Options{})
	h.say("first")
	h.until("streaming text", func() bool { return strings.Contains(h.view(), "I am writing a long") })
	h.press(tea.KeyEscape)
	h.until("the stop", func() bool { return h.idle() && strings.Contains(h.printed(), "stopped") })
	h.say("second")
	h.until("the second answer", func() bool { return h.idle() && strings.Contains(h.printed(), "Second answer.") })
	if strings.Count(h.printed(), "✗") > 0 {
		t.Errorf("a stop shown as an error:\n%s", h.printed())
	}
}

func TestCtrlCTwiceQuits(t *testing.T) {
	b := newTestConv(t)
	h := newHarness(t, b, Options{})
	h.press('c', tea.ModCtrl)
	if !strings.Contains(h.view(), "again to quit") {
		t.Fatalf("no hint after the first ctrl+c:\n%s", h.view())
	}
	h.press('c', tea.ModCtrl)
	h.until("quit", func() bool { return h.quit })
	// The last frame stays on the terminal: it must not leave an empty
	// input box and a status line in the scrollback.
	if v := strings.TrimSpace(h.view()); v != "" {
		t.Errorf("the live area is still drawn after quitting:\n%s", v)
	}
}

func TestAtPathCompletion(t *testing.T) {
	b := newTestConv(t, reply("It says hi."))
	b.write(t, "README.md", "hi there\n")
	b.write(t, "main.go", "package main\n")
	h := newHarness(t, b, Options{})
	h.typeText("explain @REA")
	h.until("the completion", func() bool { return strings.Contains(h.view(), "▸ @README.md") })
	h.press(tea.KeyTab)
	if got := h.m.input.Value(); got != "explain @README.md " {
		t.Fatalf("editor after tab = %q", got)
	}
	h.press(tea.KeyEnter)
	h.until("the answer", func() bool { return h.idle() && strings.Contains(h.printed(), "It says hi.") })
	if last := b.script.Requests()[0].Messages; !strings.Contains(last[len(last)-1].Text, "<file path=\"README.md\">\nhi there") {
		t.Errorf("README.md was not attached for the model: %q", last[len(last)-1].Text)
	}
}

// TestSlashCommands drives the conversation's own commands, listed and
// completed from its table, the pickers of /rewind and /resume, and a
// custom command, against the real conversation.
func TestSlashCommands(t *testing.T) {
	b := newTestConv(t, reply("Hi."), reply("More."))
	cmdDir := filepath.Join(b.root, ".agent", "commands")
	os.MkdirAll(cmdDir, 0o755)
	os.WriteFile(filepath.Join(cmdDir, "review.md"), []byte("# Review a file\nReview $ARGUMENTS carefully.\n"), 0o644)
	files := sandbox.NewRoot(b.root, sandbox.Options{})
	t.Cleanup(func() { files.Close() })
	h := newHarness(t, b, Options{ReadCommand: func(_ bool, name string) ([]byte, error) {
		data, _, err := files.ReadCommand(name, 1<<20)
		return data, err
	}})

	h.typeText("/re")
	if v := h.view(); !strings.Contains(v, "/rewind") || !strings.Contains(v, "/resume") || !strings.Contains(v, "/review  Review a file") {
		t.Errorf("slash completion lacks builtins or custom commands:\n%s", v)
	}
	h.press(tea.KeyBackspace)
	h.press(tea.KeyBackspace)
	h.press(tea.KeyBackspace)

	h.say("/help")
	h.settle()
	for _, c := range h.m.builtins() {
		if !strings.Contains(h.printed(), "/"+c.Name) {
			t.Errorf("/help lacks /%s", c.Name)
		}
	}
	if len(h.m.builtins()) != len(b.Commands())+2 {
		t.Errorf("/help lists %d commands, want the conversation's %d and /help and /exit", len(h.m.builtins()), len(b.Commands()))
	}
	h.say("/compact")
	h.until("/compact", func() bool { return strings.Contains(h.printed(), "/compact: nothing to compact") })

	h.say("hello")
	h.until("the first answer", func() bool { return h.idle() && strings.Contains(h.printed(), "Hi.") })
	h.say("more")
	h.until("the second answer", func() bool { return h.idle() && strings.Contains(h.printed(), "More.") })
	first := b.SessionID()

	// /rewind offers the turns, the latest first; the pick goes back to
	// before it and gives its message back to the input box.
	h.say("/rewind")
	h.until("the picker", func() bool { return h.m.picker != nil })
	if n := len(h.m.picker.choices); n != 2 {
		t.Fatalf("/rewind offers %d turns, want 2", n)
	}
	h.press(tea.KeyDown)
	h.press(tea.KeyEnter)
	h.until("the rewind", func() bool { return strings.Contains(h.printed(), "Rewound to before turn 1") })
	if got := h.m.input.Value(); got != "hello" {
		t.Errorf("input after /rewind = %q", got)
	}
	h.m.input.SetValue("")

	for cmd, want := range map[string]string{
		"clear":              "New conversation.",
		"tools":              "read_file",
		"model gemini/flash": "Now using gemini/flash.",
		"undo":               "Nothing to undo",
		"redo":               "Nothing to redo",
		"backups":            "No backups yet.",
		"prompt":             "You are a test.",
		"notes todo":         "The note tools are off",
	} {
		h.say("/" + cmd)
		h.until("/"+cmd, func() bool { return strings.Contains(h.printed(), want) })
	}
	if b.SessionID() == first {
		t.Errorf("/clear kept the session")
	}

	// /resume offers the project's other sessions; the pick resumes it.
	h.say("/resume")
	h.until("the picker", func() bool { return h.m.picker != nil })
	if c := h.m.picker.choices; len(c) != 1 || c[0].Value != first {
		t.Fatalf("/resume offers %+v, want the first session", c)
	}
	h.press(tea.KeyEnter)
	h.until("the resume", func() bool { return strings.Contains(h.printed(), "Resumed session "+first) })
	if b.SessionID() != first {
		t.Errorf("session after /resume = %s, want %s", b.SessionID(), first)
	}

	h.say("/nosuch")
	h.settle()
	if !strings.Contains(h.printed(), "unknown command /nosuch") {
		t.Errorf("unknown command not reported")
	}
	h.say("/review main.go")
	h.until("the custom command's answer", func() bool { return h.idle() && strings.Contains(h.printed(), "Reviewed.") })
	if msgs := b.switched.Requests()[0].Messages; !strings.Contains(msgs[len(msgs)-1].Text, "Review main.go carefully.") {
		t.Errorf("custom command text not sent to the model /model chose: %q", msgs[len(msgs)-1].Text)
	}
	h.say("/exit")
	h.until("quit", func() bool { return h.quit })
}

func TestShiftTabCyclesModes(t *testing.T) {
	b := newTestConv(t, reply("ok"))
	h := newHarness(t, b, Options{})
	for _, want := range []agent.Policy{agent.PolicyAuto, PolicyPlan, agent.PolicyAsk} {
		h.press(tea.KeyTab, tea.ModShift)
		if b.Policy() != want || h.m.info.Policy != want {
			t.Fatalf("policy = %s (shown %s), want %s", b.Policy(), h.m.info.Policy, want)
		}
	}
	h.press(tea.KeyTab, tea.ModShift)
	if !strings.Contains(h.view(), "auto-approve") {
		t.Errorf("status line lacks the mode:\n%s", h.view())
	}
	h.say("go")
	h.until("the answer", func() bool { return h.idle() && strings.Contains(h.printed(), "ok") })
	if b.Policy() != agent.PolicyAuto {
		t.Errorf("conversation's policy = %s", b.Policy())
	}
}

func TestNarrowTerminalAndHistory(t *testing.T) {
	b := newTestConv(t, reply("one"), reply("two"))
	h := newHarness(t, b, Options{})
	h.deliver(tea.WindowSizeMsg{Width: 60, Height: 20})
	h.say("first message")
	h.until("one", func() bool { return h.idle() && strings.Contains(h.printed(), "one") })
	for _, l := range strings.Split(h.view(), "\n") {
		if w := len([]rune(l)); w > 60 {
			t.Errorf("line wider than 60 columns (%d): %q", w, l)
		}
	}
	h.press(tea.KeyUp)
	if got := h.m.input.Value(); got != "first message" {
		t.Errorf("history up = %q", got)
	}
	// A new chat in the same project has the history too, once the first
	// has written it (in a command of its own).
	for i := 0; ; i++ {
		data, _ := os.ReadFile(filepath.Join(b.root, ".agent", "history"))
		if strings.Contains(string(data), "first message") {
			break
		}
		if i == 500 {
			t.Fatal("the history was not written")
		}
		time.Sleep(10 * time.Millisecond)
	}
	h2 := newHarness(t, b, Options{})
	h2.settle()
	h2.press(tea.KeyUp)
	if got := h2.m.input.Value(); got != "first message" {
		t.Errorf("history across sessions = %q", got)
	}
}

func TestProviderErrorIsOneCalmLine(t *testing.T) {
	b := newTestConv(t, llmtest.Reply{Text: "", Err: errString("401 unauthorized: bad key\nsecond line")}, reply("back"))
	h := newHarness(t, b, Options{})
	h.say("hi")
	h.until("the error", func() bool { return h.idle() && strings.Contains(h.printed(), "✗") })
	h.say("again")
	h.until("recovery", func() bool { return h.idle() && strings.Contains(h.printed(), "back") })
	for _, l := range strings.Split(h.printed(), "\n") {
		if strings.Contains(l, "unauthorized") && !strings.Contains(l, "second line") {
			t.Errorf("error not folded onto one line: %q", l)
		}
	}
}

type errString string

func (e errString) Error() string { return string(e) }

func TestLargePasteIsAPlaceholder(t *testing.T) {
	b := newTestConv(t, reply("got it"))
	h := newHarness(t, b, Options{})
	big := strings.Repeat("line of pasted text\n", 5000)
	h.deliver(tea.PasteMsg{Content: big})
	if v := h.m.input.Value(); !strings.HasPrefix(v, "[pasted #1: 5000 lines]") {
		t.Fatalf("editor = %q", v[:min(len(v), 80)])
	}
	h.press(tea.KeyEnter)
	h.until("the answer", func() bool { return h.idle() && strings.Contains(h.printed(), "got it") })
	if msgs := b.script.Requests()[0].Messages; !strings.Contains(msgs[len(msgs)-1].Text, big) {
		t.Errorf("the pasted text did not reach the model")
	}
}
