package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestChatNotify: the default rings in the way the terminal shows best;
// a project may always silence the chat, but makes it ring over the
// user's choice only once trusted; a value the chat does not know is
// refused with the way out.
func TestChatNotify(t *testing.T) {
	root := t.TempDir()
	user := filepath.Join(root, "user.toml")
	project := filepath.Join(root, "proj", ".agent", "config.toml")
	if err := os.MkdirAll(filepath.Dir(project), 0o755); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"GEMINI_API_KEY": "k"}
	load := func(userValue, projectValue string, trusted bool) (Config, error) {
		t.Helper()
		os.WriteFile(user, []byte(userValue), 0o644)
		os.WriteFile(project, []byte(projectValue), 0o644)
		return Load(Input{Files: []string{user, project}, Project: project, Trusted: trusted, Env: env})
	}
	for _, c := range []struct {
		name, user, project string
		trusted             bool
		want                string
	}{
		{"default", "", "", false, ChatNotifyAuto},
		{"the user's", "[chat]\nnotify = \"bell\"\n", "", false, ChatNotifyBell},
		{"a project silences", "[chat]\nnotify = \"osc9\"\n", "[chat]\nnotify = \"off\"\n", false, ChatNotifyOff},
		{"an untrusted project rings", "[chat]\nnotify = \"off\"\n", "[chat]\nnotify = \"bell\"\n", false, ChatNotifyOff},
		{"a trusted project rings", "[chat]\nnotify = \"off\"\n", "[chat]\nnotify = \"bell\"\n", true, ChatNotifyBell},
		{"an untrusted project changes the way", "", "[chat]\nnotify = \"osc9\"\n", false, ChatNotifyAuto},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := load(c.user, c.project, c.trusted)
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Chat.Notify != c.want {
				t.Errorf("chat.notify = %q, want %q", cfg.Chat.Notify, c.want)
			}
		})
	}
	_, err := load("[chat]\nnotify = \"loud\"\n", "", false)
	if err == nil || !strings.Contains(err.Error(), `chat.notify = "loud"`) || !strings.Contains(err.Error(), "use auto, bell, osc9 or off") {
		t.Errorf("a bad value: %v", err)
	}
}
