package config

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// TestEverySettingIsClassified walks Config and its tables by their toml
// names (settingNames): a setting nobody classified is refused from
// every project, so adding one to Config without deciding what a
// project may do with it fails here.
func TestEverySettingIsClassified(t *testing.T) {
	names := settingNames(reflect.TypeFor[Config](), "")
	for _, want := range []string{"reasoning", "models.*.context_window", "mcp.servers.*.command", "tts.voice", "programs"} {
		if !slices.Contains(names, want) {
			t.Fatalf("the walk of Config missed %s: %v", want, names)
		}
	}
	for _, name := range names {
		if _, _, class := classify(toml.Key(strings.Split(name, "."))); class == unclassified {
			t.Errorf("setting %s is not classified: add it to settingClasses (trust_keys.go) as anyProject, trustedProject, userOnly or raiseNeedsTrust", name)
		}
	}
}

// TestClassesNameRealSettings: every entry of settingClasses is a
// setting or a table of Config, so that none is a misspelling that
// leaves the real one unclassified.
func TestClassesNameRealSettings(t *testing.T) {
	names := settingNames(reflect.TypeFor[Config](), "")
	for rule := range settingClasses {
		if !slices.ContainsFunc(names, func(n string) bool { return n == rule || strings.HasPrefix(n, rule+".") }) {
			t.Errorf("settingClasses names %s, which is no setting of Config", rule)
		}
	}
}

// TestUnclassifiedSettingIsRefused: a setting with no class is not taken
// from a project, trusted or not.
func TestUnclassifiedSettingIsRefused(t *testing.T) {
	class := settingClasses["tree.style"]
	delete(settingClasses, "tree.style")
	t.Cleanup(func() { settingClasses["tree.style"] = class })
	root := t.TempDir()
	proj := writeProject(t, root, "[tree]\nstyle = \"plain\"\n")
	for _, trusted := range []bool{false, true} {
		c, err := Load(Input{Files: []string{proj}, Project: proj, Trusted: trusted, Env: map[string]string{"GEMINI_API_KEY": "k"}})
		if err != nil {
			t.Fatal(err)
		}
		if c.Tree.Style != "emoji" || len(c.Ignored) != 1 || c.Ignored[0].Key != "tree.style" || !c.Ignored[0].UserOnly {
			t.Errorf("trusted %v: tree.style %q, ignored %+v; want it refused as no project's", trusted, c.Tree.Style, c.Ignored)
		}
	}
}

func writeProject(t *testing.T, root, text string) string {
	t.Helper()
	proj := ProjectFile(root)
	os.MkdirAll(filepath.Dir(proj), 0o755)
	if err := os.WriteFile(proj, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return proj
}

// TestUntrustedProjectReasoningAndWindow: an untrusted project may lower
// the user's reasoning and context window, never raise them; where the
// user left them to the provider or the model, whose amount is not known
// here, it may only turn thinking off.
func TestUntrustedProjectReasoningAndWindow(t *testing.T) {
	const model = `[models."gemini-2.5-flash"]` + "\n"
	for _, tc := range []struct {
		name, user, project string
		reasoning           string // EffectiveReasoning
		window              int    // Window
		ignored             string
	}{
		{"raise over defaults", "", "reasoning = \"high\"\ncontext_window = 5000000\n", "", 1048576, "reasoning,context_window"},
		{"off over the default", "", "reasoning = \"off\"\n", "off", 1048576, ""},
		{"lower the user's", "reasoning = \"medium\"\ncontext_window = 100000\n", "reasoning = \"low\"\ncontext_window = 50000\n", "low", 50000, ""},
		{"raise the user's", "reasoning = \"medium\"\ncontext_window = 100000\n", "reasoning = \"high\"\ncontext_window = 200000\n", "medium", 100000, "reasoning,context_window"},
		{"back to the provider's", "reasoning = \"low\"\ncontext_window = 100000\n", "reasoning = \"\"\ncontext_window = 0\n", "low", 100000, "reasoning,context_window"},
		{"a model's own, raised", model + "reasoning = \"low\"\n", model + "reasoning = \"medium\"\ncontext_window = 2000000\n", "low", 1048576,
			`models."gemini-2.5-flash".reasoning,models."gemini-2.5-flash".context_window`},
		{"a model's own, under the user's top level", "context_window = 8192\nreasoning = \"high\"\n", model + "context_window = 4096\nreasoning = \"medium\"\n", "medium", 4096, ""},
		{"a model's table keeps the user's other fields", model + "reasoning = \"off\"\n", model + "images = true\n", "off", 1048576, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			user := filepath.Join(t.TempDir(), "config.toml")
			os.WriteFile(user, []byte(tc.user), 0o644)
			root := t.TempDir()
			proj := writeProject(t, root, tc.project)
			env := map[string]string{"GEMINI_API_KEY": "k"}
			c, err := Load(Input{Files: []string{user, proj}, Project: proj, Env: env})
			if err != nil {
				t.Fatal(err)
			}
			w, _ := c.Window()
			var got []string
			for _, ig := range c.Ignored {
				if ig.UserOnly {
					t.Errorf("%s is marked user-only: trust would not apply it", ig.Key)
				}
				got = append(got, ig.Key)
			}
			if c.EffectiveReasoning() != tc.reasoning || w != tc.window || strings.Join(got, ",") != tc.ignored {
				t.Errorf("reasoning %q, window %d, ignored %v; want %q, %d, %s", c.EffectiveReasoning(), w, got, tc.reasoning, tc.window, tc.ignored)
			}
			if tc.ignored == "" {
				return
			}
			// Trusted, the raise applies; and it is what the trust
			// question shows.
			var shown []string
			for _, p := range PendingTrust(c, env, root) {
				shown = append(shown, p.Shown)
			}
			if !strings.Contains(strings.Join(shown, "\n"), got[0]+" = ") {
				t.Errorf("the trust question shows %q, not %s", shown, got[0])
			}
			trusted, err := Load(Input{Files: []string{user, proj}, Project: proj, Trusted: true, Env: env})
			if err != nil || len(trusted.Ignored) != 0 {
				t.Errorf("trusted: %v, ignored %v", err, trusted.Ignored)
			}
		})
	}
}

// TestUntrustedProjectCannotTurnNotesBackOn: the note tools the user
// turned off stay off; a project may turn them off.
func TestUntrustedProjectCannotTurnNotesBackOn(t *testing.T) {
	for _, tc := range []struct {
		user, project string
		on            bool
	}{
		{"[tools]\nnotes = false\n", "[tools]\nnotes = true\n", false},
		{"", "[tools]\nnotes = false\n", false},
		{"", "[tools]\nnotes = true\n", true},
	} {
		user := filepath.Join(t.TempDir(), "config.toml")
		os.WriteFile(user, []byte(tc.user), 0o644)
		proj := writeProject(t, t.TempDir(), tc.project)
		c, err := Load(Input{Files: []string{user, proj}, Project: proj, Env: map[string]string{"GEMINI_API_KEY": "k"}})
		if err != nil {
			t.Fatal(err)
		}
		if c.NotesOn() != tc.on {
			t.Errorf("user %q, project %q: notes on %v, want %v", tc.user, tc.project, c.NotesOn(), tc.on)
		}
	}
}

// TestUntrustedProjectSpeechStaysOffline: a project may choose the
// offline espeak-ng, never Gemini's speech over the user's choice.
func TestUntrustedProjectSpeechStaysOffline(t *testing.T) {
	for _, tc := range []struct{ user, project, want string }{
		{"", "espeak", "espeak"},
		{"gemini", "espeak-ng", "espeak-ng"},
		{"espeak", "gemini", "espeak"},
		{"espeak", "", "espeak"},
	} {
		user := filepath.Join(t.TempDir(), "config.toml")
		os.WriteFile(user, []byte("[tts]\nprovider = \""+tc.user+"\"\n"), 0o644)
		proj := writeProject(t, t.TempDir(), "[tts]\nprovider = \""+tc.project+"\"\n")
		c, err := Load(Input{Files: []string{user, proj}, Project: proj, Env: map[string]string{"GEMINI_API_KEY": "k"}})
		if err != nil {
			t.Fatal(err)
		}
		if c.TTS.Provider != tc.want {
			t.Errorf("user %q, project %q: tts.provider %q, want %q", tc.user, tc.project, c.TTS.Provider, tc.want)
		}
	}
}
