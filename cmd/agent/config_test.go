package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/llm/llmtest"
)

// providerVars are the variables that choose or configure a provider.
var providerVars = []string{
	"GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_GEMINI_BASE_URL",
	"OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENROUTER_API_KEY", "VENICE_API_KEY", "OLLAMA_API_KEY", "OLLAMA_HOST",
	"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL",
	"AGENT_PROVIDER", "AGENT_MODEL", "AGENT_BASE_URL", "AGENT_API_KEY_ENV", "AGENT_MAX_ITERATIONS",
	"AGENT_APPROVAL", "AGENT_TOOL_TIMEOUT", "AGENT_MODEL_TIMEOUT",
}

// cleanEnv hides the developer's own keys and config files from a test.
func cleanEnv(t *testing.T) {
	t.Helper()
	for _, k := range providerVars {
		t.Setenv(k, "")
	}
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
}

func TestConfigCmdMasksKey(t *testing.T) {
	cleanEnv(t)
	key := "AIzaSyD3adb33fC0ffee0123456789abcd"
	t.Setenv("GEMINI_API_KEY", key)
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".agent"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".agent", "config.toml"), []byte("max_iterations = 4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runAgent(t, "config", "--dir", dir, "--model", "gemini-2.5-pro")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if strings.Contains(out, key[4:len(key)-4]) {
		t.Errorf("the key shows:\n%s", out)
	}
	for _, want := range []string{
		`provider = "gemini"`, `model = "gemini-2.5-pro"`, "# flag --model",
		"max_iterations = 4", filepath.Join(dir, ".agent", "config.toml"),
		"# api key: AIza…abcd (from GEMINI_API_KEY)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestConfigCmdMissingKey(t *testing.T) {
	cleanEnv(t)
	out, errOut, code := runAgent(t, "config", "--dir", t.TempDir(), "--provider", "openrouter")
	if code != exitFailed || !strings.Contains(errOut, "set OPENROUTER_API_KEY") {
		t.Errorf("exit %d, stderr %q; want 1 naming OPENROUTER_API_KEY", code, errOut)
	}
	if !strings.Contains(out, "# api key: not set (set OPENROUTER_API_KEY)") {
		t.Errorf("output:\n%s", out)
	}
}

func TestConfigCmdNoProvider(t *testing.T) {
	cleanEnv(t)
	probe := config.LocalProbe(t.Context(), nil)
	for _, name := range config.PresetNames() {
		if p, _ := config.LookupPreset(name); p.NoKey {
			if _, ok := probe(p, p.BaseURL); ok {
				t.Skipf("%s answers on %s", p.Title, p.BaseURL)
			}
		}
	}
	out, errOut, code := runAgent(t, "config", "--dir", t.TempDir())
	if code != exitOK || !strings.Contains(errOut, "no model provider") {
		t.Errorf("exit %d, stderr %q; want 0 and a note", code, errOut)
	}
	if !strings.Contains(out, "# no model provider is configured") || !strings.Contains(out, "agent demo-chat-tools") {
		t.Errorf("the output does not say how to set a provider:\n%s", out)
	}
	var v map[string]any
	if _, err := toml.Decode(out, &v); err != nil {
		t.Errorf("the output is not TOML: %v\n%s", err, out)
	}
}

func TestConfigCmdDirMustBeAFolder(t *testing.T) {
	cleanEnv(t)
	t.Setenv("GEMINI_API_KEY", "k")
	file := filepath.Join(t.TempDir(), "f.txt")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{filepath.Join(t.TempDir(), "missing"), file} {
		_, errOut, code := runAgent(t, "config", "--dir", dir)
		if code != exitUsage || !strings.Contains(errOut, "--dir") {
			t.Errorf("--dir %s: exit %d, stderr %q; want %d", dir, code, errOut, exitUsage)
		}
	}
}

func TestConfigCmdBadFile(t *testing.T) {
	cleanEnv(t)
	t.Setenv("GEMINI_API_KEY", "k")
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, ".agent"), 0o755)
	os.WriteFile(filepath.Join(dir, ".agent", "config.toml"), []byte("max_iterations = 0\n"), 0o644)
	_, errOut, code := runAgent(t, "config", "--dir", dir)
	if code != exitFailed || !strings.Contains(errOut, "use a number of 1 or more") || strings.Count(errOut, "\n") != 1 {
		t.Errorf("exit %d, stderr %q; want one line", code, errOut)
	}
}

// TestModelFactory builds each provider family from the environment its
// fake server gives, exactly as a user would configure it, and streams a
// reply through the real SDK.
func TestModelFactory(t *testing.T) {
	for _, tc := range []struct {
		name   string
		start  func(testing.TB, ...llmtest.Answer) *llmtest.Server
		extra  []string
		family string
		model  string
	}{
		{"gemini", llmtest.NewGeminiServer, nil, config.FamilyGemini, "gemini/gemini-2.5-flash"},
		{"openai", llmtest.NewOpenAIServer, nil, config.FamilyOpenAI, "openai/gpt-4.1-mini"},
		{"ollama at OLLAMA_HOST", func(t testing.TB, a ...llmtest.Answer) *llmtest.Server {
			return llmtest.NewOllamaServer(t, []llmtest.OllamaModel{{Name: "qwen3:latest", Max: 40960}}, a...).Server
		}, []string{"AGENT_PROVIDER=ollama"}, config.FamilyOllama, "ollama/qwen3:latest"},
		{"llamacpp via OPENAI_BASE_URL", func(t testing.TB, a ...llmtest.Answer) *llmtest.Server {
			return llmtest.NewLlamaCppServer(t, 4096, a...)
		}, []string{"AGENT_PROVIDER=llamacpp", "OPENAI_API_KEY="}, config.FamilyOpenAI, "llamacpp/llmtest.gguf"},
		{"lmstudio via OPENAI_BASE_URL", func(t testing.TB, a ...llmtest.Answer) *llmtest.Server {
			return llmtest.NewLMStudioServer(t, []llmtest.LMStudioModel{{ID: "qwen3-8b", Loaded: 8192}}, a...)
		}, []string{"AGENT_PROVIDER=lmstudio", "OPENAI_API_KEY="}, config.FamilyOpenAI, "lmstudio/qwen3-8b"},
		{"anthropic", llmtest.NewAnthropicServer, nil, config.FamilyAnthropic, "anthropic/claude-sonnet-4-5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cleanEnv(t)
			s := tc.start(t, llmtest.Say("o", "k"))
			for _, kv := range append(s.Env(), tc.extra...) {
				k, v, _ := strings.Cut(kv, "=")
				t.Setenv(k, v)
			}
			d := &factory{}
			cfg, err := d.loadConfig(t.Context(), t.TempDir(), config.Flags{})
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Family != tc.family {
				t.Fatalf("family = %q, want %q", cfg.Family, tc.family)
			}
			m, err := d.model(t.Context(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if m.Name() != tc.model {
				t.Errorf("Name() = %q, want %q", m.Name(), tc.model)
			}
			req := llm.Request{Messages: []llm.Message{{Role: llm.User, Text: "hi"}}, Stop: []string{"<tool_response"}}
			text, _, _, err := llmtest.Collect(m.Stream(t.Context(), req))
			if err != nil || text != "ok" {
				t.Fatalf("got %q, %v", text, err)
			}
			if n := len(s.Requests()); n != 1 {
				t.Errorf("%d requests, want 1", n)
			}
		})
	}
}

func TestModelFactoryMissingKey(t *testing.T) {
	cleanEnv(t)
	d := &factory{}
	cfg, err := d.loadConfig(t.Context(), t.TempDir(), config.Flags{Provider: "anthropic"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.model(t.Context(), cfg); err == nil || !strings.Contains(err.Error(), "ANTHROPIC_API_KEY") {
		t.Errorf("err = %v, want it to name ANTHROPIC_API_KEY", err)
	}
}

// agent config shows every section that is set, each value from its
// file, secrets masked; and every key it prints is one the configuration
// page (docs/configuration.md) documents.
func TestConfigCmdShowsEverySectionAndOnlyDocumentedKeys(t *testing.T) {
	cleanEnv(t)
	t.Setenv("GEMINI_API_KEY", "test-key")
	user := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "agent")
	if err := os.MkdirAll(user, 0o755); err != nil {
		t.Fatal(err)
	}
	conf := `images = false
[files]
allow_secrets = [".env.local"]
extra_extensions = [".foo"]
[web]
allow_hosts = ["example.com"]
[programs]
espeak-ng = "/usr/bin/espeak-ng"
[tts]
voice = "Kore"
concurrency = 2
[mcp]
timeout = "10s"
serve_token = "a-long-serve-token-of-some-length"
[mcp.servers.github]
command = "github-mcp-server"
args = ["stdio"]
env = { GITHUB_TOKEN = "${GITHUB_TOKEN}", LITERAL = "ghp_literalsecretvalue123456" }
read_only = ["search_code"]
[mcp.servers.docs]
url = "https://docs.example.com/mcp"
headers = { Authorization = "Bearer ${DOCS_TOKEN}" }
`
	if err := os.WriteFile(filepath.Join(user, "config.toml"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runAgent(t, "config", "--dir", t.TempDir())
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"images = false", `allow_secrets = [".env.local"]`, `allow_hosts = ["example.com"]`,
		`espeak-ng = "/usr/bin/espeak-ng"`, "\n[tts]\n", `voice = "Kore"`, "concurrency = 2",
		"\n[mcp]\n", `timeout = "10s"`, "[mcp.servers.github]", `command = "github-mcp-server"`,
		`GITHUB_TOKEN = "${GITHUB_TOKEN}"`, `read_only = ["search_code"]`,
		"[mcp.servers.docs]", `headers = { Authorization = "Bearer ${DOCS_TOKEN}" }`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("agent config lacks %q:\n%s", want, out)
		}
	}
	for _, secret := range []string{"literalsecretvalue", "serve-token-of-some"} {
		if strings.Contains(out, secret) {
			t.Errorf("agent config shows a secret (%s):\n%s", secret, out)
		}
	}
	page, err := os.ReadFile("../../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(out, "\n") {
		name, _, ok := strings.Cut(l, " = ")
		if !ok || strings.HasPrefix(l, "#") || strings.HasPrefix(l, " ") {
			continue
		}
		doc := string(page)
		if !strings.Contains(doc, name+" = ") && !strings.Contains(doc, "`"+name+"`") && !strings.Contains(doc, "."+name+"`") {
			t.Errorf("agent config prints %q, which docs/configuration.md does not document", name)
		}
	}
}
