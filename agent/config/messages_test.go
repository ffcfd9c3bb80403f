package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSettingMessages: the messages for a mistyped setting, a variable
// that is not a number and a size out of range say what was wrong and
// what would work, in words.
func TestSettingMessages(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		env        map[string]string
		want       string // the whole message, FILE for the file's path
	}{
		{name: "variable not a number", env: map[string]string{"AGENT_MAX_ITERATIONS": "abc"},
			want: "AGENT_MAX_ITERATIONS=abc: not a whole number (e.g. 20)"},
		{name: "variable too large", env: map[string]string{"AGENT_CONTEXT_WINDOW": "99999999999999999999"},
			want: "AGENT_CONTEXT_WINDOW=99999999999999999999: too large (e.g. 32768)"},
		{name: "variable not a duration", env: map[string]string{"AGENT_TOOL_TIMEOUT": "soon"},
			want: "AGENT_TOOL_TIMEOUT=soon: not a duration (e.g. 90s, 2m or 1h30m)"},
		{name: "variable with escapes", env: map[string]string{"AGENT_MAX_ITERATIONS": "1\x1b[2J"},
			want: `AGENT_MAX_ITERATIONS="1\x1b[2J": not a whole number (e.g. 20)`},
		{name: "unknown key, nothing close", file: "bogus_key = 1\n",
			want: "unknown setting bogus_key in FILE (agent config shows them all)"},
		{name: "typo", file: "max_iteratons = 5\n",
			want: "unknown setting max_iteratons in FILE (did you mean max_iterations?)"},
		{name: "typo in a table", file: "[tts]\nvocie = \"Kore\"\n",
			want: "unknown setting tts.vocie in FILE (did you mean tts.voice?)"},
		{name: "in the wrong table", file: "read_limit = \"1MiB\"\n",
			want: "unknown setting read_limit in FILE (did you mean files.read_limit?)"},
		{name: "typo under a map", file: "[models.mine]\ncontext_windw = 5\n",
			want: "unknown setting models.mine.context_windw in FILE (did you mean models.mine.context_window?)"},
		{name: "a key with escapes", file: "\"\\u001b[2J\" = 1\n",
			want: `unknown setting "\u001b[2J" in FILE (agent config shows them all)`},
		{name: "a real secret", file: "openai_key = \"sk-1\"\n",
			want: "config file FILE: openai_key is not a setting: keys are never stored in config files; set the provider's variable (like GEMINI_API_KEY), or name another one with api_key_env"},
		{name: "size out of range", file: "[files]\nread_limit = \"100TiB\"\n",
			want: `files.read_limit = "100TiB" (from FILE): out of range; use a size from 1KiB to 64MiB, like 1MiB`},
		{name: "size too small", file: "[files]\nread_limit = 100\n",
			want: `files.read_limit = "100" (from FILE): out of range; use a size from 1KiB to 64MiB, like 1MiB`},
		{name: "size beyond any number", file: "[files]\nread_limit = \"9999999999GiB\"\n",
			want: `size "9999999999GiB" is far too large`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := map[string]string{"GEMINI_API_KEY": "k"}
			for k, v := range tc.env {
				env[k] = v
			}
			fs := files(t, "", tc.file)
			_, err := Load(Input{Files: fs, Env: env})
			want := tc.want
			if len(fs) > 0 {
				want = strings.ReplaceAll(want, "FILE", fs[len(fs)-1])
			}
			if err == nil || !strings.Contains(err.Error(), want) || strings.ContainsRune(err.Error(), 0x1b) {
				t.Errorf("err = %v\nwant %s", err, want)
			}
		})
	}
}

// TestStateFolderIsAFile: a project whose .agent is a file gets one line
// saying so, not the system's "not a directory" about config.toml.
func TestStateFolderIsAFile(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, ".agent"), []byte("junk"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(Input{Files: []string{ProjectFile(root)}, Project: ProjectFile(root), Env: map[string]string{"GEMINI_API_KEY": "k"}})
	want := filepath.Join(root, ".agent") + " is not a folder; the agent keeps its state there: move it away"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v, want %q", err, want)
	}
}
