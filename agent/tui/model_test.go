package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/llm/llmtest"
	"github.com/agentcli/agent/tools/fsedit"
)

func reply(s string) llmtest.Reply { return llmtest.Reply{Text: s} }

func TestQuestionAnswered(t *testing.T) {
	b := newTestBackend(t, reply("Here is the answer: **forty-two**.\n\n```go\nfunc main() {}\n```\n"))
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
	if v := h.view(); !strings.Contains(v, "script/test-model") || !strings.Contains(v, "~/proj") {
		t.Errorf("status line lacks model or folder:\n%s", v)
	}
}

func TestReadShownAsCard(t *testing.T) {
	b := newTestBackend(t,
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
	b := newTestBackend(t,
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
	b := newTestBackend(t,
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
	b := newTestBackend(t,
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
	b := newTestBackend(t)
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
	b := newTestBackend(t, reply("It says hi."))
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
	if len(b.attached) != 1 || b.attached[0] != "README.md" {
		t.Errorf("attached %v", b.attached)
	}
	if last := b.script.Requests()[0].Messages; !strings.Contains(last[len(last)-1].Text, "hi there") {
		t.Errorf("the file's text did not reach the model")
	}
}

func TestSlashCommands(t *testing.T) {
	b := newTestBackend(t)
	cmdDir := filepath.Join(b.root, ".agent", "commands")
	os.MkdirAll(cmdDir, 0o755)
	os.WriteFile(filepath.Join(cmdDir, "review.md"), []byte("# Review a file\nReview $ARGUMENTS carefully.\n"), 0o644)
	b.script = llmtest.NewScript(reply("Reviewed."))
	b.a.Model = b.script
	files := fsedit.NewRoot(b.root, fsedit.Options{})
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
	for _, c := range builtins {
		if !strings.Contains(h.printed(), "/"+c.name) {
			t.Errorf("/help lacks /%s", c.name)
		}
	}
	for _, name := range []string{CmdClear, CmdTools, CmdModel + " gemini/flash", CmdUndo, CmdRedo, CmdBackups, CmdPrompt, CmdNotes + " todo"} {
		h.say("/" + name)
		h.until("/"+name, func() bool { return strings.Contains(h.printed(), "did "+name) })
	}
	h.say("/compact")
	h.until("/compact", func() bool { return strings.Contains(h.printed(), "not available") })
	for i, name := range []string{CmdRewind, CmdResume} {
		h.say("/" + name)
		h.until("the picker", func() bool { return h.m.picker != nil })
		h.press(tea.KeyDown)
		h.press(tea.KeyEnter)
		h.until("the pick", func() bool { return strings.Count(h.printed(), "went back to 2") == i+1 })
		b.commands = b.commands[:len(b.commands)-2]
		if name == CmdRewind {
			// The rewound turn's message is back in the input box.
			if got := h.m.input.Value(); got != "the message of turn 2" {
				t.Errorf("input after /rewind = %q", got)
			}
			h.m.input.SetValue("")
		}
	}
	want := []string{"clear", "tools", "model gemini/flash", "undo", "redo", "backups", "prompt", "notes todo", "compact"}
	if strings.Join(b.commands, ",") != strings.Join(want, ",") {
		t.Errorf("backend commands = %q", b.commands)
	}
	h.say("/nosuch")
	h.settle()
	if !strings.Contains(h.printed(), "unknown command /nosuch") {
		t.Errorf("unknown command not reported")
	}
	h.say("/review main.go")
	h.until("the custom command's answer", func() bool { return h.idle() && strings.Contains(h.printed(), "Reviewed.") })
	if msgs := b.script.Requests()[0].Messages; !strings.Contains(msgs[len(msgs)-1].Text, "Review main.go carefully.") {
		t.Errorf("custom command text not sent: %q", msgs[len(msgs)-1].Text)
	}
	h.say("/exit")
	h.until("quit", func() bool { return h.quit })
}

func TestShiftTabCyclesModes(t *testing.T) {
	b := newTestBackend(t, reply("ok"))
	h := newHarness(t, b, Options{})
	for _, want := range []agent.Policy{agent.PolicyAuto, PolicyPlan, agent.PolicyAsk} {
		h.press(tea.KeyTab, tea.ModShift)
		if h.m.policy != want {
			t.Fatalf("policy = %s, want %s", h.m.policy, want)
		}
	}
	h.press(tea.KeyTab, tea.ModShift)
	if !strings.Contains(h.view(), "auto-approve") {
		t.Errorf("status line lacks the mode:\n%s", h.view())
	}
	h.say("go")
	h.until("the answer", func() bool { return h.idle() && strings.Contains(h.printed(), "ok") })
	if b.policy != agent.PolicyAuto {
		t.Errorf("backend policy = %s", b.policy)
	}
}

func TestNarrowTerminalAndHistory(t *testing.T) {
	b := newTestBackend(t, reply("one"), reply("two"))
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
	b := newTestBackend(t, llmtest.Reply{Text: "", Err: errString("401 unauthorized: bad key\nsecond line")}, reply("back"))
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
	b := newTestBackend(t, reply("got it"))
	h := newHarness(t, b, Options{})
	big := strings.Repeat("line of pasted text\n", 5000)
	h.deliver(tea.PasteMsg{Content: big})
	if v := h.m.input.Value(); !strings.HasPrefix(v, "[pasted #1: 5001 lines]") {
		t.Fatalf("editor = %q", v[:min(len(v), 80)])
	}
	h.press(tea.KeyEnter)
	h.until("the answer", func() bool { return h.idle() && strings.Contains(h.printed(), "got it") })
	if msgs := b.script.Requests()[0].Messages; !strings.Contains(msgs[len(msgs)-1].Text, big) {
		t.Errorf("the pasted text did not reach the model")
	}
}
