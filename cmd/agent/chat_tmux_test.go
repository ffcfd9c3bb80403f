package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agentcli/agent/agent/llm/llmtest"
)

var updateGolden = flag.Bool("update", false, "rewrite the tmux screen goldens in testdata/tui")

// tmuxChat is the chat running in a real terminal: the agent binary in a
// tmux pane of its own tmux server, talking to a fake provider on
// 127.0.0.1.
type tmuxChat struct {
	t      *testing.T
	socket string
	proj   string
	srv    *llmtest.Server
}

// tmuxOptions is what a real-terminal test starts: the command (given
// the agent binary's path) in a tmux pane of width×height of its own tmux
// server, in a fresh project folder, with the binary's folder on PATH and
// a fake Gemini server on 127.0.0.1 answering answers.
type tmuxOptions struct {
	width, height int
	answers       []llmtest.Answer
	env           []string // beside HOME, XDG_CONFIG_HOME, TERM, PATH and the server's; NO_COLOR is unset unless given
	command       func(bin string) []string
}

// startTmux starts o's command. Under CI a missing tmux fails the test;
// elsewhere it skips.
func startTmux(t *testing.T, o tmuxOptions) *tmuxChat {
	t.Helper()
	if testing.Short() {
		t.Skip("a real terminal under tmux: run without -short (make test runs it once, not again under -race)")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("tmux is needed for the real-terminal tests (apt-get install tmux)")
		}
		t.Skip("tmux not installed")
	}
	bin, err := exec.LookPath("agent") // the test binary, as set up by TestMain
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	proj := filepath.Join(home, "proj")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	srv := llmtest.NewGeminiServer(t, o.answers...)
	c := &tmuxChat{t: t, socket: fmt.Sprintf("agent-test-%d-%d", os.Getpid(), time.Now().UnixNano()), proj: proj, srv: srv}
	env := []string{"-u", "NO_COLOR", "HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "TERM=xterm-256color",
		"PATH=" + filepath.Dir(bin) + ":/usr/bin:/bin"}
	env = append(append(env, o.env...), srv.Env()...)
	args := []string{"-L", c.socket, "-f", "/dev/null", "new-session", "-d", "-x", fmt.Sprint(o.width), "-y", fmt.Sprint(o.height), "-c", proj, "env"}
	args = append(append(args, env...), o.command(bin)...)
	if out, err := exec.Command("tmux", args...).CombinedOutput(); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	t.Cleanup(func() { exec.Command("tmux", "-L", c.socket, "kill-server").Run() })
	return c
}

// startTmuxChat starts `agent` (no arguments: the chat) and waits for its
// prompt.
func startTmuxChat(t *testing.T, width, height int, answers ...llmtest.Answer) *tmuxChat {
	t.Helper()
	c := startTmux(t, tmuxOptions{width: width, height: height, answers: answers,
		env:     []string{"NO_COLOR=1", "EDITOR=true"},
		command: func(bin string) []string { return []string{bin} }})
	c.waitPrompt()
	return c
}

// waitPrompt waits for the chat's prompt and for its program to read the
// keys, and returns the screen then.
func (c *tmuxChat) waitPrompt() string {
	c.t.Helper()
	s := c.waitFor("the prompt", "Ask, or /help")
	c.waitReady()
	return s
}

// waitReady waits until the chat's own program reads the keys. The
// prompt is drawn before Bubble Tea starts (prepaint), while the terminal
// is still in its cooked mode: keys sent then are echoed by the terminal
// and a paste arrives without its brackets (each line break an Enter).
// Bubble Tea puts the cursor after "› " in its first frame; the prepainted
// one leaves it in the first column.
func (c *tmuxChat) waitReady() {
	c.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for strings.TrimSpace(c.tmux("display-message", "-p", "-t", "0", "#{cursor_x}")) == "0" {
		if time.Now().After(deadline) {
			c.t.Fatalf("the chat did not take the terminal within 15 s:\n%s", c.screen())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (c *tmuxChat) tmux(args ...string) string {
	c.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", c.socket}, args...)...).CombinedOutput()
	if err != nil {
		c.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// screen is the visible pane, trailing spaces and blank lines trimmed.
func (c *tmuxChat) screen() string {
	out := c.tmux("capture-pane", "-p")
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n") + "\n"
}

func (c *tmuxChat) keys(keys ...string) { c.tmux(append([]string{"send-keys", "-t", "0"}, keys...)...) }

// typeLine types text literally and presses Enter.
func (c *tmuxChat) typeLine(text string) {
	c.tmux("send-keys", "-t", "0", "-l", text)
	c.keys("Enter")
}

func (c *tmuxChat) waitFor(what, text string) string {
	c.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		s := c.screen()
		if strings.Contains(s, text) {
			return s
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("timed out waiting for %s (%q); screen:\n%s", what, text, s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

var (
	durationRE = regexp.MustCompile(`\b\d+(\.\d+)?(ms|s)\b`)
	sessionRE  = regexp.MustCompile(`session [0-9A-Za-z_-]+`)
)

// golden compares the screen with testdata/tui/name.txt, durations and the
// session id made stable.
func (c *tmuxChat) golden(name, screen string) {
	c.t.Helper()
	screen = strings.ReplaceAll(screen, c.proj, "PROJECT")
	screen = durationRE.ReplaceAllString(screen, "Nms")
	screen = sessionRE.ReplaceAllString(screen, "session ID")
	path := filepath.Join("..", "..", "testdata", "tui", name+".txt")
	if *updateGolden {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			c.t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(screen), 0o644); err != nil {
			c.t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		c.t.Fatalf("%v (run the test with -update to create it)", err)
	}
	if string(want) != screen {
		c.t.Errorf("screen differs from %s (rerun with -update if the change is right)\n--- want\n%s--- got\n%s", path, want, screen)
	}
}

// idle waits until the reply is over (no spinner line) and returns the
// screen.
func (c *tmuxChat) idle() string {
	c.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	prev := ""
	for {
		s := c.screen()
		// Idle, and the same for 150 ms: a frame is never half drawn.
		if s == prev && !strings.Contains(s, "esc to stop") && !strings.ContainsAny(s, "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏") {
			return s
		}
		prev = s
		time.Sleep(130 * time.Millisecond)
		if time.Now().After(deadline) {
			c.t.Fatalf("timed out waiting for the reply to end; screen:\n%s", s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (c *tmuxChat) write(name, content string) {
	c.t.Helper()
	if err := os.WriteFile(filepath.Join(c.proj, name), []byte(content), 0o644); err != nil {
		c.t.Fatal(err)
	}
}

func (c *tmuxChat) read(name string) string {
	c.t.Helper()
	b, err := os.ReadFile(filepath.Join(c.proj, name))
	if err != nil {
		c.t.Fatal(err)
	}
	return string(b)
}

const tmuxWrite = `<tool_call name="write_file"><operation_type>rewrite</operation_type><file_path>a.txt</file_path><content>new text
</content></tool_call>`

func TestChatTmuxAnswerAndCard(t *testing.T) {
	c := startTmuxChat(t, 80, 24,
		llmtest.Say("Hello! Here is **bold** and `code`.\n\n- one\n- two\n"),
		llmtest.Say(`Reading it.<tool_call name="read_file"><file_path>notes.txt</file_path></tool_call>`),
		llmtest.Say("The notes say hi."),
	)
	c.write("notes.txt", "hi\n")
	c.typeLine("hello")
	c.waitFor("the answer", "• two")
	c.typeLine("what do the notes say?")
	c.waitFor("the second answer", "The notes say hi.")
	s := c.idle()
	if !strings.Contains(s, "read_file notes.txt") || !strings.Contains(s, "✓") {
		t.Errorf("no finished read card:\n%s", s)
	}
	c.golden("answer_and_card", s)
}

func TestChatTmuxApproval(t *testing.T) {
	read := llmtest.Say(`<tool_call name="read_file"><file_path>a.txt</file_path></tool_call>`)
	c := startTmuxChat(t, 80, 30,
		read, llmtest.Say(tmuxWrite), llmtest.Say("Rewritten."),
		read, llmtest.Say(strings.Replace(tmuxWrite, "new text", "other text", 1)), llmtest.Say("Left alone."),
	)
	c.write("a.txt", "old text\n")
	c.typeLine("rewrite a.txt")
	s := c.waitFor("the question", "Allow write_file?")
	c.golden("approval", s)
	c.keys("y")
	c.waitFor("the answer", "Rewritten.")
	if got := c.read("a.txt"); got != "new text\n" {
		t.Errorf("after y, a.txt = %q", got)
	}
	c.typeLine("again")
	c.waitFor("the second question", "+other text")
	c.keys("n")
	c.waitFor("the answer", "Left alone.")
	if got := c.read("a.txt"); got != "new text\n" {
		t.Errorf("after n, a.txt = %q", got)
	}
}

func TestChatTmuxStopThenNewMessage(t *testing.T) {
	slow := llmtest.Say("Streaming slowly", " and more", " and more").WithChunkDelay(3 * time.Second)
	c := startTmuxChat(t, 80, 24, slow, llmtest.Say("Recovered."))
	c.typeLine("start")
	c.waitFor("the stream", "Streaming slowly")
	c.keys("C-c")
	c.waitFor("the stop", "stopped")
	// A new line with Ctrl+J (Debian's tmux sends Shift+Enter as Enter).
	c.tmux("send-keys", "-t", "0", "-l", "line one")
	c.keys("C-j")
	c.typeLine("line two")
	c.waitFor("the next answer", "Recovered.")
	reqs := c.srv.Requests()
	if last := reqs[len(reqs)-1].LastUser(); !strings.Contains(last, "line one\nline two") {
		t.Errorf("the two-line message arrived as %q", last)
	}
}

func TestChatTmuxNarrow(t *testing.T) {
	c := startTmuxChat(t, 100, 24, llmtest.Say("A reply long enough to need wrapping at sixty columns, so that we can see the wrap happen."))
	c.tmux("resize-window", "-t", "0", "-x", "60")
	// The chat redraws for the new width (the status line shortens).
	c.waitFor("the redraw", "·… ask")
	c.typeLine("hi")
	c.waitFor("the answer", "happen.")
	s := c.idle()
	for _, l := range strings.Split(s, "\n") {
		if n := len([]rune(l)); n > 60 {
			t.Errorf("line of %d columns at width 60: %q", n, l)
		}
	}
	// What was drawn at the old width may be reflowed by the terminal;
	// the golden is what came after the resize.
	c.golden("narrow", s[strings.Index(s, "› hi"):])
}
