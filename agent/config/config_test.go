package config

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentcli/agent/agent/llm/llmtest"
)

// files writes user and project config files and returns their paths.
func files(t *testing.T, user, project string) []string {
	t.Helper()
	dir := t.TempDir()
	u := filepath.Join(dir, "xdg", "agent", "config.toml")
	p := filepath.Join(dir, "proj", ".agent", "config.toml")
	for path, body := range map[string]string{u: user, p: project} {
		if body == "" {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return []string{u, p}
}

func noProbe(Preset, string) ([]string, bool) { return nil, false }

func TestDefaultsWithGeminiKey(t *testing.T) {
	c, err := Load(Input{Env: map[string]string{"GEMINI_API_KEY": "AIzaSyExampleExample1234"}, Probe: noProbe})
	if err != nil {
		t.Fatal(err)
	}
	if c.Provider != "gemini" || c.Family != FamilyGemini || c.Model != "gemini-2.5-flash" {
		t.Errorf("provider %q family %q model %q", c.Provider, c.Family, c.Model)
	}
	if c.APIKey != "AIzaSyExampleExample1234" || c.KeyEnv != "GEMINI_API_KEY" {
		t.Errorf("key %q from %q", c.APIKey, c.KeyEnv)
	}
	if c.MaxIterations != 10 || c.Approval != "ask" || c.Tree.Budget != 300 || c.Files.ReadLimit != 1<<20 {
		t.Errorf("defaults not applied: %+v", c)
	}
	if got := c.Origin("provider"); got != "auto: GEMINI_API_KEY is set" {
		t.Errorf("provider origin = %q", got)
	}
	if c.BaseURL != "" {
		t.Errorf("base URL = %q, want the SDK's default", c.BaseURL)
	}
}

func TestAutoOrder(t *testing.T) {
	for _, tc := range []struct {
		env      map[string]string
		provider string
		keyEnv   string
	}{
		{map[string]string{"GOOGLE_API_KEY": "g"}, "gemini", "GOOGLE_API_KEY"},
		{map[string]string{"GEMINI_API_KEY": "a", "GOOGLE_API_KEY": "b"}, "gemini", "GEMINI_API_KEY"},
		{map[string]string{"OPENAI_API_KEY": "o", "ANTHROPIC_API_KEY": "a"}, "openai", "OPENAI_API_KEY"},
		{map[string]string{"OPENAI_API_KEY": "o", "GEMINI_API_KEY": "g"}, "gemini", "GEMINI_API_KEY"},
		{map[string]string{"ANTHROPIC_API_KEY": "a"}, "anthropic", "ANTHROPIC_API_KEY"},
		{map[string]string{"ANTHROPIC_AUTH_TOKEN": "t"}, "anthropic", "ANTHROPIC_AUTH_TOKEN"},
		{map[string]string{"OPENROUTER_API_KEY": "r"}, "openrouter", "OPENROUTER_API_KEY"},
		{map[string]string{"OPENAI_BASE_URL": "http://127.0.0.1:8080/v1"}, "openai", "OPENAI_API_KEY"},
	} {
		c, err := Load(Input{Env: tc.env, Probe: noProbe})
		if err != nil {
			t.Errorf("env %v: %v", tc.env, err)
			continue
		}
		if c.Provider != tc.provider || c.KeyEnv != tc.keyEnv {
			t.Errorf("env %v: provider %q key from %q, want %q from %q", tc.env, c.Provider, c.KeyEnv, tc.provider, tc.keyEnv)
		}
	}
}

// fakeProbe answers for the local servers named in up, recording every
// question; it may be called from several goroutines at once.
type fakeProbe struct {
	mu    sync.Mutex
	up    map[string][]string // preset name → its models
	asked []string            // "name address"
}

func (f *fakeProbe) probe(p Preset, addr string) ([]string, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asked = append(f.asked, p.Name+" "+addr)
	models, ok := f.up[p.Name]
	return models, ok
}

// TestAutoLocalServer: with no key set, every local server is asked (at
// once), and the first of the presets that answers is used, with the
// first model it lists.
func TestAutoLocalServer(t *testing.T) {
	for _, tc := range []struct {
		up                  map[string][]string
		provider, model, at string
	}{
		{map[string][]string{"ollama": {"qwen3:8b", "llama3.2"}}, "ollama", "qwen3:8b", OllamaURL},
		{map[string][]string{"llamacpp": {"gemma.gguf"}}, "llamacpp", "gemma.gguf", "http://127.0.0.1:8080/v1"},
		{map[string][]string{"lmstudio": {"qwen3-8b"}}, "lmstudio", "qwen3-8b", "http://127.0.0.1:1234/v1"},
		{map[string][]string{"lmstudio": {"a"}, "ollama": {"b"}}, "ollama", "b", OllamaURL},
	} {
		f := &fakeProbe{up: tc.up}
		c, err := Load(Input{Env: map[string]string{}, Probe: f.probe})
		if err != nil {
			t.Fatal(err)
		}
		if c.Provider != tc.provider || c.Model != tc.model || c.BaseURL != tc.at {
			t.Errorf("%v: provider %q model %q at %q; want %q %q at %q", tc.up, c.Provider, c.Model, c.BaseURL, tc.provider, tc.model, tc.at)
		}
		if !strings.HasPrefix(c.Origin("provider"), "auto: ") || !strings.Contains(c.Origin("provider"), "answers on 127.0.0.1:") {
			t.Errorf("provider origin %q", c.Origin("provider"))
		}
		if len(f.asked) != 3 {
			t.Errorf("asked %q, want the three local servers", f.asked)
		}
		if c.KeyRequired() || c.MissingKey() != nil {
			t.Errorf("%s should need no key", c.Provider)
		}
	}
	f := &fakeProbe{}
	if _, err := Load(Input{Env: map[string]string{"GEMINI_API_KEY": "k"}, Probe: f.probe}); err != nil || len(f.asked) != 0 {
		t.Errorf("with a key set: %v, asked %q; want no question to any server", err, f.asked)
	}
}

// TestLocalServerModelProbedAtItsAddress: a local server named without a
// model is asked for its models at the address configured for it.
func TestLocalServerModelProbedAtItsAddress(t *testing.T) {
	f := &fakeProbe{up: map[string][]string{"ollama": {"gemma3"}, "llamacpp": {"m.gguf"}}}
	c, err := Load(Input{Env: map[string]string{"OLLAMA_HOST": "box:9999"}, Flags: Flags{Provider: "ollama"}, Probe: f.probe})
	if err != nil || c.Model != "gemma3" || c.BaseURL != "http://box:9999" {
		t.Errorf("model = %q at %q, %v; want the one Ollama lists, at OLLAMA_HOST", c.Model, c.BaseURL, err)
	}
	c, err = Load(Input{Env: map[string]string{"OPENAI_BASE_URL": "http://gpu:8081/v1"}, Flags: Flags{Provider: "llamacpp"}, Probe: f.probe})
	if err != nil || c.Model != "m.gguf" || c.BaseURL != "http://gpu:8081/v1" {
		t.Errorf("model = %q at %q, %v", c.Model, c.BaseURL, err)
	}
	if want := []string{"ollama http://box:9999", "llamacpp http://gpu:8081/v1"}; strings.Join(f.asked, "|") != strings.Join(want, "|") {
		t.Errorf("asked %q, want %q", f.asked, want)
	}
	c, err = Load(Input{Flags: Flags{Provider: "ollama", Model: "llama3.2"}, Probe: f.probe})
	if err != nil || c.Model != "llama3.2" || len(f.asked) != 2 {
		t.Errorf("a named model: %q, %v, asked %q; want it, and no question", c.Model, err, f.asked)
	}
}

// TestOllamaHost reads Ollama's own variable in the forms Ollama takes.
func TestOllamaHost(t *testing.T) {
	for in, want := range map[string]string{
		"":                         OllamaURL,
		"0.0.0.0":                  "http://127.0.0.1:11434",
		"0.0.0.0:11435":            "http://127.0.0.1:11435",
		"box":                      "http://box:11434",
		"box:8000":                 "http://box:8000",
		"http://box:8000":          "http://box:8000",
		"http://box":               "http://box",
		"https://ollama.example":   "https://ollama.example",
		"https://x.example/ollama": "https://x.example/ollama",
		"[::]:11434":               "http://[::1]:11434",
		"http://box:8000/":         "http://box:8000",
	} {
		env := map[string]string{}
		if in != "" {
			env["OLLAMA_HOST"] = in
		}
		c, err := Load(Input{Env: env, Flags: Flags{Provider: "ollama", Model: "m"}})
		if err != nil {
			t.Fatal(err)
		}
		if c.BaseURL != want {
			t.Errorf("OLLAMA_HOST=%q: base URL %q, want %q", in, c.BaseURL, want)
		}
	}
}

func TestNoProvider(t *testing.T) {
	_, err := Load(Input{Env: map[string]string{}, Probe: noProbe})
	if !errors.Is(err, ErrNoProvider) {
		t.Fatalf("err = %v, want ErrNoProvider", err)
	}
	for _, want := range []string{"GEMINI_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "Ollama", "config.toml", "agent demo-chat-tools"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the message does not mention %s:\n%s", want, err)
		}
	}
	// With no probe at all, nothing is asked and the answer is the same.
	if _, err := Load(Input{}); !errors.Is(err, ErrNoProvider) {
		t.Errorf("nil probe: err = %v", err)
	}
}

func TestPrecedence(t *testing.T) {
	fs := files(t,
		"provider = \"openai\"\nmodel = \"user-model\"\nmax_iterations = 4\n[tree]\nbudget = 50\nstyle = \"plain\"\n",
		"model = \"project-model\"\napproval = \"never\"\n[tree]\nbudget = 80\n",
	)
	env := map[string]string{"OPENAI_API_KEY": "k", "AGENT_APPROVAL": "auto"}
	c, err := Load(Input{Files: fs, Env: env, Flags: Flags{MaxIterations: 7}, Probe: noProbe})
	if err != nil {
		t.Fatal(err)
	}
	check := func(key string, got, want any, origin string) {
		t.Helper()
		if got != want || c.Origin(key) != origin {
			t.Errorf("%s = %v from %q, want %v from %q", key, got, c.Origin(key), want, origin)
		}
	}
	check("provider", c.Provider, "openai", fs[0])
	check("model", c.Model, "project-model", fs[1])
	check("approval", c.Approval, "auto", "env AGENT_APPROVAL")
	check("max_iterations", c.MaxIterations, 7, "flag --max-iterations")
	check("tree.budget", c.Tree.Budget, 80, fs[1])
	check("tree.style", c.Tree.Style, "plain", fs[0])
	check("backups.max_size", c.Backups.MaxSize, Size(1<<30), "default")
	if len(c.FilesRead) != 2 {
		t.Errorf("files read = %v", c.FilesRead)
	}

	c, err = Load(Input{Files: fs, Env: map[string]string{"OPENAI_API_KEY": "k", "AGENT_MODEL": "env-model"}, Flags: Flags{Model: "flag-model"}})
	if err != nil || c.Model != "flag-model" {
		t.Errorf("model = %q, %v; want the flag's", c.Model, err)
	}
}

func TestBaseURLPrecedence(t *testing.T) {
	fileURL := files(t, "", "provider = \"ollama\"\nbase_url = \"http://file:1/v1\"\n")
	for _, tc := range []struct {
		name   string
		files  []string
		env    map[string]string
		flags  Flags
		want   string
		origin string
	}{
		{"preset", nil, nil, Flags{Provider: "openrouter"}, "https://openrouter.ai/api/v1", "default for openrouter"},
		{"SDK variable beats preset", nil, map[string]string{"OPENAI_BASE_URL": "http://proxy:9/v1"}, Flags{Provider: "llamacpp"}, "http://proxy:9/v1", "env OPENAI_BASE_URL"},
		{"Ollama's variable", nil, map[string]string{"OLLAMA_HOST": "box:9", "OPENAI_BASE_URL": "http://proxy:9/v1"}, Flags{Provider: "ollama"}, "http://box:9", "env OLLAMA_HOST"},
		{"file beats preset", fileURL, nil, Flags{}, "http://file:1/v1", fileURL[1]},
		{"SDK variable beats file", fileURL, map[string]string{"OLLAMA_HOST": "http://env:2"}, Flags{}, "http://env:2", "env OLLAMA_HOST"},
		{"AGENT_BASE_URL beats SDK variable", nil, map[string]string{"OPENAI_BASE_URL": "http://a/v1", "AGENT_BASE_URL": "http://b/v1"}, Flags{Provider: "openai"}, "http://b/v1", "env AGENT_BASE_URL"},
		{"flag beats all", fileURL, map[string]string{"OPENAI_BASE_URL": "http://a/v1", "AGENT_BASE_URL": "http://b/v1"}, Flags{BaseURL: "http://c/v1/"}, "http://c/v1", "flag --base-url"},
		{"gemini variable", nil, map[string]string{"GEMINI_API_KEY": "k", "GOOGLE_GEMINI_BASE_URL": "http://127.0.0.1:5"}, Flags{}, "http://127.0.0.1:5", "env GOOGLE_GEMINI_BASE_URL"},
		{"other provider's variable ignored", nil, map[string]string{"GEMINI_API_KEY": "k", "OPENAI_BASE_URL": "http://x/v1"}, Flags{}, "", "default for gemini: the SDK's address"},
		{"anthropic variable", nil, map[string]string{"ANTHROPIC_API_KEY": "k", "ANTHROPIC_BASE_URL": "http://127.0.0.1:6"}, Flags{}, "http://127.0.0.1:6", "env ANTHROPIC_BASE_URL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Load(Input{Files: tc.files, Env: tc.env, Flags: tc.flags, Probe: noProbe})
			if err != nil {
				t.Fatal(err)
			}
			if c.BaseURL != tc.want || c.Origin("base_url") != tc.origin {
				t.Errorf("base URL %q from %q, want %q from %q", c.BaseURL, c.Origin("base_url"), tc.want, tc.origin)
			}
		})
	}
}

func TestAPIKeyEnv(t *testing.T) {
	env := map[string]string{"WORK_KEY": "secret-work-key", "OPENAI_API_KEY": "personal"}
	c, err := Load(Input{Env: env, Flags: Flags{Provider: "openai", APIKeyEnv: "WORK_KEY"}})
	if err != nil {
		t.Fatal(err)
	}
	if c.APIKey != "secret-work-key" || c.KeyEnv != "WORK_KEY" {
		t.Errorf("key %q from %q", c.APIKey, c.KeyEnv)
	}
	c, err = Load(Input{Env: map[string]string{}, Flags: Flags{Provider: "openai", APIKeyEnv: "NOPE"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.MissingKey(); err == nil || !strings.Contains(err.Error(), "NOPE") {
		t.Errorf("MissingKey() = %v, want it to name NOPE", err)
	}
}

func TestMissingKey(t *testing.T) {
	for _, tc := range []struct {
		flags Flags
		env   map[string]string
		want  string // "" means no key is needed
	}{
		{Flags{Provider: "openrouter"}, nil, "set OPENROUTER_API_KEY"},
		{Flags{Provider: "gemini"}, nil, "set GEMINI_API_KEY or GOOGLE_API_KEY"},
		{Flags{Provider: "anthropic"}, nil, "ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN"},
		{Flags{Provider: "openai", BaseURL: "http://127.0.0.1:8080/v1"}, nil, ""},
		{Flags{Provider: "ollama"}, nil, ""},
		{Flags{Provider: "llamacpp"}, nil, ""},
		{Flags{Provider: "lmstudio"}, nil, ""},
	} {
		c, err := Load(Input{Env: tc.env, Flags: tc.flags})
		if err != nil {
			t.Fatal(err)
		}
		err = c.MissingKey()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%+v: MissingKey() = %v, want nil", tc.flags, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%+v: MissingKey() = %v, want it to contain %q", tc.flags, err, tc.want)
		}
	}
}

func TestBadSettings(t *testing.T) {
	for _, tc := range []struct {
		file, want string
		env        map[string]string
		flags      Flags
	}{
		{file: "modle = \"x\"\n", want: `unknown setting modle in `},
		{file: "api_key = \"sk-123\"\n", want: "keys are never stored in config files"},
		{file: "approval = \"sometimes\"\n", want: `approval = "sometimes" (from `},
		{file: "[tree]\nstyle = \"fancy\"\n", want: "use emoji or plain"},
		{file: "max_iterations = 0\n", want: "use a number of 1 or more"},
		{file: "tool_timeout = \"soon\"\n", want: "write it like 90s"},
		{file: "model_timeout = \"1ns\"\n", want: "model_timeout = 1ns (from "},
		{env: map[string]string{"AGENT_MODEL_TIMEOUT": "500ms"}, want: "(from env AGENT_MODEL_TIMEOUT): use at least 1s, like 2m"},
		{file: "provider = ", want: "config file"},
		{file: "provider = \"mistral\"\n", want: `unknown provider "mistral"`},
		{env: map[string]string{"AGENT_MAX_ITERATIONS": "many"}, want: `AGENT_MAX_ITERATIONS=many: not a whole number (e.g. 20)`},
		{flags: Flags{Approval: "maybe"}, want: "(from flag --approval): use ask, auto or never"},
		{flags: Flags{BaseURL: "localhost:11434"}, want: `base URL "localhost:11434" (from flag --base-url): use an http://`},
		{file: "base_url = \"ftp://x\"\n", want: "use an http:// or https:// address"},
	} {
		env := map[string]string{"GEMINI_API_KEY": "k"}
		for k, v := range tc.env {
			env[k] = v
		}
		_, err := Load(Input{Files: files(t, "", tc.file), Env: env, Flags: tc.flags})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("file %q env %v: err = %v, want it to contain %q", tc.file, tc.env, err, tc.want)
		}
	}
}

func TestShortestModelTimeout(t *testing.T) {
	c, err := Load(Input{Files: files(t, "", "model_timeout = \"1s\"\n"), Env: map[string]string{"GEMINI_API_KEY": "k"}})
	if err != nil || time.Duration(c.ModelTimeout) != time.Second {
		t.Fatalf("model_timeout = 1s: %v, %v; want it accepted", c.ModelTimeout, err)
	}
}

func TestUnits(t *testing.T) {
	fs := files(t, "", `
tool_timeout = 45
model_timeout = "1m30s"
[retry]
max_time = "0.5d"
[files]
read_limit = "512KB"
extra_extensions = [".tf", "Jenkinsfile"]
[backups]
max_age = "30d"
max_size = 1048576
`)
	c, err := Load(Input{Files: fs, Env: map[string]string{"GEMINI_API_KEY": "k"}})
	if err != nil {
		t.Fatal(err)
	}
	if c.ToolTimeout != Duration(45*time.Second) || c.ModelTimeout != Duration(90*time.Second) || c.Retry.MaxTime != Duration(12*time.Hour) {
		t.Errorf("durations: %v %v %v", c.ToolTimeout, c.ModelTimeout, c.Retry.MaxTime)
	}
	if c.Files.ReadLimit != 512000 || c.Backups.MaxSize != 1<<20 || c.Backups.MaxAge != Duration(30*24*time.Hour) {
		t.Errorf("sizes: %v %v %v", c.Files.ReadLimit, c.Backups.MaxSize, c.Backups.MaxAge)
	}
	if len(c.Files.ExtraExtensions) != 2 || c.Files.ExtraExtensions[1] != "Jenkinsfile" {
		t.Errorf("extensions = %q", c.Files.ExtraExtensions)
	}
	if s := c.Backups.MaxAge.String(); s != "30d" {
		t.Errorf("30 days print as %q", s)
	}
	if s := c.Backups.MaxSize.String(); s != "1MiB" {
		t.Errorf("1 MiB prints as %q", s)
	}
}

func TestWriteMasksKey(t *testing.T) {
	key := "AIzaSyD3adb33fC0ffee0123456789abcd"
	c, err := Load(Input{Env: map[string]string{"GEMINI_API_KEY": key}})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := c.Write(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.Contains(out, key) || strings.Contains(out, key[4:len(key)-4]) {
		t.Errorf("the key shows:\n%s", out)
	}
	for _, want := range []string{`provider = "gemini"`, "# auto: GEMINI_API_KEY is set", "# api key: AIza…abcd (from GEMINI_API_KEY)", "[backups]", `max_age = "30d"`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestMask(t *testing.T) {
	for in, want := range map[string]string{"": "", "short": "********", "sk-proj-0123456789abcdefXYZ": "sk-p…fXYZ"} {
		if got := Mask(in); got != want {
			t.Errorf("Mask(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDefaultFiles(t *testing.T) {
	got := DefaultFiles(map[string]string{"XDG_CONFIG_HOME": "/x", "HOME": "/h"}, "/p")
	want := []string{filepath.Join("/x", "agent", "config.toml"), filepath.Join("/p", ".agent", "config.toml")}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("DefaultFiles = %q, want %q", got, want)
	}
	got = DefaultFiles(map[string]string{"HOME": "/h"}, "/p")
	if got[0] != filepath.Join("/h", ".config", "agent", "config.toml") {
		t.Errorf("without XDG_CONFIG_HOME: %q", got[0])
	}
}

// TestLocalProbe asks each kind of local server its own way.
func TestLocalProbe(t *testing.T) {
	ollama := llmtest.NewOllamaServer(t, []llmtest.OllamaModel{{Name: "qwen3:8b"}, {Name: "gemma3:latest"}})
	llama := llmtest.NewLlamaCppServer(t, 4096)
	studio := llmtest.NewLMStudioServer(t, []llmtest.LMStudioModel{{ID: "qwen3-8b"}})
	probe := LocalProbe(t.Context(), nil)
	for _, tc := range []struct {
		preset, addr, want string
	}{
		{"ollama", ollama.URL, "qwen3:8b,gemma3:latest"},
		{"llamacpp", llama.URL, "llmtest.gguf"},
		{"lmstudio", studio.URL, "qwen3-8b"},
	} {
		p, _ := LookupPreset(tc.preset)
		models, ok := probe(p, tc.addr)
		if !ok || strings.Join(models, ",") != tc.want {
			t.Errorf("%s: probe = %v, %v; want %s", tc.preset, models, ok, tc.want)
		}
	}
	ollama.Close()
	p, _ := LookupPreset("ollama")
	if _, ok := probe(p, ollama.URL); ok {
		t.Error("a closed server answered")
	}
	// A web app on the port answers every path with 200 and JSON of its
	// own: no local model server.
	app := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"status":"ok"}`)
	}))
	defer app.Close()
	for _, name := range []string{"ollama", "llamacpp", "lmstudio"} {
		p, _ := LookupPreset(name)
		if models, ok := probe(p, app.URL+"/v1"); ok {
			t.Errorf("%s: a web app answering every path was taken for a model server (models %v)", name, models)
		}
	}
}
