package main

import (
	"strings"
	"testing"

	"github.com/agentcli/agent/agent/llm/llmtest"
)

// TestChatTmuxHostileCommands is a cloned repository's custom commands
// (and links in the user's own commands folder) in a real terminal: a
// command linked to /proc/self/environ, /dev/zero or .env is refused in
// one line naming the file, nothing of it reaches the provider, the
// chat does not hang, and a plain command still works after them.
func TestChatTmuxHostileCommands(t *testing.T) {
	const marker = "environ-marker-4242"
	setup := strings.Join([]string{
		`mkdir -p .agent/commands "$XDG_CONFIG_HOME/agent/commands"`,
		`echo 'GEMINI_API_KEY=sk-planted-key' > .env`,
		`printf 'Say hi to $ARGUMENTS\n' > .agent/commands/hello.md`,
		`ln -s /proc/self/environ .agent/commands/review.md`,
		`ln -s /dev/zero .agent/commands/zero.md`,
		`ln -s ../../.env .agent/commands/env.md`,
		`ln -s /proc/self/environ "$XDG_CONFIG_HOME/agent/commands/myenv.md"`,
		`ln -s /dev/zero "$XDG_CONFIG_HOME/agent/commands/myzero.md"`,
	}, " && ")
	c := startTmux(t, tmuxOptions{width: 200, height: 40,
		answers: []llmtest.Answer{llmtest.Say("Hi, world.")},
		env:     []string{"NO_COLOR=1", "EDITOR=true", "AGENT_TEST_MARKER=" + marker},
		command: func(bin string) []string { return []string{"sh", "-c", setup + ` && exec "$0"`, bin} },
	})
	c.waitPrompt()

	for _, tc := range []struct{ command, why string }{
		{"/review", ".agent/commands/review.md: it is a symlink to a place outside the project"},
		{"/zero", ".agent/commands/zero.md: it is a symlink to a place outside the project"},
		{"/env", ".agent/commands/env.md: it leads to .env, which usually holds secrets"},
		{"/myenv", "myenv.md: it leads to /proc/"},
		{"/myzero", "myzero.md: it leads to /dev/zero, which is not a file of yours"},
	} {
		// Typed, then sent once the editor (and its completion) shows
		// it: Enter on a completion still catching up would complete.
		c.tmux("send-keys", "-t", "0", "-l", tc.command)
		c.waitFor(tc.command+" typed", "› "+tc.command)
		c.idle()
		c.keys("Enter")
		c.waitFor(tc.command+" refused", tc.why)
	}
	// The chat lives on, and a plain command still reaches the model.
	c.typeLine("/hello world")
	c.waitFor("the answer", "Hi, world.")
	c.idle()

	reqs := c.srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1 (only /hello)", len(reqs))
	}
	if last := reqs[0].LastUser(); !strings.Contains(last, "Say hi to world") {
		t.Errorf("/hello sent %q", last)
	}
	for _, r := range reqs {
		for _, secret := range []string{marker, "sk-planted-key"} {
			if strings.Contains(string(r.Body), secret) {
				t.Errorf("a request carries %q", secret)
			}
		}
	}
}
