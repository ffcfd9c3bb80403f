// Package config loads the agent's configuration: flags over environment
// over the project's .agent/config.toml over the user's
// $XDG_CONFIG_HOME/agent/config.toml over defaults. It resolves the
// provider (choosing one from the keys in the environment when none is
// named), its base URL and its key. Load has no hidden inputs: files,
// environment, flags and the local probe are all passed in.
package config

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// Config is the effective configuration.
type Config struct {
	Provider string `toml:"provider"` // a preset name (see PresetNames)
	Model    string `toml:"model"`
	BaseURL  string `toml:"base_url"` // "" means the SDK's default address
	// APIKeyEnv names the environment variable that holds the key, instead
	// of the provider's usual one. Keys never live in config files.
	APIKeyEnv string `toml:"api_key_env"`

	MaxIterations int      `toml:"max_iterations"` // model calls per request
	Approval      string   `toml:"approval"`       // ask, auto or never: how writes are approved
	ToolTimeout   Duration `toml:"tool_timeout"`   // time limit of one tool call
	ModelTimeout  Duration `toml:"model_timeout"`  // longest silence of the model before giving up
	// StdinTimeout is how long `agent run "prompt"` waits for piped
	// standard input to say something before going on without it.
	StdinTimeout Duration `toml:"stdin_timeout"`

	// ContextWindow (tokens), Reasoning and Models: see context.go.
	ContextWindow int                    `toml:"context_window"`
	Reasoning     string                 `toml:"reasoning"`
	Models        map[string]ModelConfig `toml:"models"`
	// Images says whether the model reads images; unset leaves it to
	// the provider (images.go).
	Images *bool `toml:"images"`

	Retry   Retry   `toml:"retry"`
	Tree    Tree    `toml:"tree"`
	Files   Files   `toml:"files"`
	Backups Backups `toml:"backups"`
	Shell   Shell   `toml:"shell"` // the user's own config only (shell.go)
	Web     Web     `toml:"web"`   // the user's own config only (web.go)
	Git     Git     `toml:"git"`   // the user's own config only (git.go)
	// Programs are helper programs' paths; the user's own config only
	// (programs.go).
	Programs Programs `toml:"programs"`
	TTS      TTS      `toml:"tts"`
	MCP      MCP      `toml:"mcp"` // MCP servers to import tools from (mcp.go)
	LSP      LSP      `toml:"lsp"` // language servers (lsp.go)

	Notes Notes        `toml:"notes"` // notes.go
	Tools ToolSwitches `toml:"tools"`
	// Agents are the sub-agents' settings (agents.go).
	Agents Agents `toml:"agents"`

	// Permissions are rules about writes; from the user's own config
	// only (permissions.go).
	Permissions Permissions `toml:"permissions"`

	// Hooks are programs run at the agent's steps (hooks.go): the
	// user's, and a trusted project's, which run in the sandbox.
	Hooks Hooks `toml:"hooks"`
	Chat  Chat  `toml:"chat"` // chat.go

	// Resolved by Load, never read from files.

	Family string `toml:"-"` // the wire protocol: FamilyGemini, FamilyOpenAI, FamilyAnthropic
	APIKey string `toml:"-"` // the key itself; "" if none is set
	KeyEnv string `toml:"-"` // the variable the key comes (or would come) from
	// Origins says where each setting came from, by its dotted name
	// ("model", "tree.budget", "api_key"): "default", "flag --model",
	// "env AGENT_MODEL", a file path, or "auto: ...".
	Origins map[string]string `toml:"-"`
	// Searched are the config files considered, FilesRead those that
	// existed and were read.
	Searched, FilesRead []string `toml:"-"`
	// Ignored are the settings of the project's file that were not
	// applied: the project is not trusted, or no project may make them.
	Ignored []Ignored `toml:"-"`
	// ProjectTrusted says the project's settings that need trust were
	// applied (set by the caller that settled the trust): a project's
	// MCP servers start only then.
	ProjectTrusted bool `toml:"-"`
}

// Retry bounds the retries of one model call.
type Retry struct {
	Attempts int      `toml:"attempts"` // requests in all, the first included
	MaxTime  Duration `toml:"max_time"` // no retry starts later than this after the first request
}

// Tree configures the project file tree shown to the model.
type Tree struct {
	Budget int    `toml:"budget"` // entries shown at most
	Style  string `toml:"style"`  // "emoji" (📝 file, 📁 folder) or "plain"
}

// Files configures the file tools.
type Files struct {
	ReadLimit       Size     `toml:"read_limit"`       // larger files are read by range
	ExtraExtensions []string `toml:"extra_extensions"` // accepted and ignored: every text file is editable now
	// AllowSecrets are globs of secret-looking files (.env, *.pem) the
	// file tools may read and write anyway; from the user's own config
	// only.
	AllowSecrets []string `toml:"allow_secrets"`
}

// Backups configures backup retention.
type Backups struct {
	MaxAge  Duration `toml:"max_age"`  // older change sets are pruned
	MaxSize Size     `toml:"max_size"` // the oldest change sets go beyond this total
}

// Defaults is the configuration with nothing configured (provider not yet
// resolved).
func Defaults() Config {
	return Config{
		MaxIterations: 10,
		Approval:      "ask",
		ToolTimeout:   Duration(60 * time.Second),
		ModelTimeout:  Duration(2 * time.Minute),
		StdinTimeout:  Duration(10 * time.Minute),
		Retry:         Retry{Attempts: 3, MaxTime: Duration(2 * time.Minute)},
		Tree:          Tree{Budget: 300, Style: "emoji"},
		Files:         Files{ReadLimit: 1 << 20},
		Backups:       Backups{MaxAge: Duration(30 * 24 * time.Hour), MaxSize: 1 << 30},
		Shell:         Shell{Sandbox: "on", Timeout: Duration(2 * time.Minute)},
		Chat:          Chat{Notify: ChatNotifyAuto},
		Agents:        Agents{MaxParallel: 4},
	}
}

// Flags are the command-line settings; zero values are unset.
type Flags struct {
	Provider, Model, BaseURL, APIKeyEnv, Approval, Reasoning string
	MaxIterations, ContextWindow                             int
	ToolTimeout, ModelTimeout                                time.Duration
}

// Input is everything Load reads.
type Input struct {
	// Files are config files, lowest precedence first (the user's, then
	// the project's); missing ones are skipped. See DefaultFiles.
	Files []string
	// Env is the environment (see EnvMap).
	Env map[string]string
	// Flags are the command-line settings.
	Flags Flags
	// Project is the project's own config file (one of Files): its
	// settings are restricted unless Trusted (see trust.go).
	Project string
	// Trusted says the user trusts the project, so its file may make the
	// settings that send data elsewhere or run programs.
	Trusted bool
	// Probe asks the local server of preset p (Ollama, llama.cpp, LM
	// Studio) at baseURL whether it answers and which models it has (see
	// LocalProbe). It is called only when nothing else chose a provider,
	// or for a local server named without a model. nil never probes.
	Probe func(p Preset, baseURL string) (models []string, ok bool)
}

// EnvMap turns os.Environ-style pairs into a map.
func EnvMap(environ []string) map[string]string {
	m := make(map[string]string, len(environ))
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[k] = v
		}
	}
	return m
}

// ProjectFile is the project's own config file under root.
func ProjectFile(root string) string { return filepath.Join(root, ".agent", "config.toml") }

// DefaultFiles are the user's and the project's config files, in
// precedence order for Input.Files: $XDG_CONFIG_HOME/agent/config.toml (or
// ~/.config/agent/config.toml) and <root>/.agent/config.toml.
func DefaultFiles(env map[string]string, root string) []string {
	var files []string
	if dir := UserDir(env); dir != "" {
		files = append(files, filepath.Join(dir, "config.toml"))
	}
	return append(files, ProjectFile(root))
}

// Load builds the effective configuration from in.
func Load(in Input) (Config, error) {
	c := Defaults()
	c.Origins = map[string]string{}
	c.Searched = in.Files
	for _, path := range in.Files {
		read, err := c.loadFile(path, path == in.Project, in.Trusted)
		if err != nil {
			return Config{}, err
		}
		if read {
			c.FilesRead = append(c.FilesRead, path)
		}
	}
	if err := c.applyEnv(in.Env); err != nil {
		return Config{}, err
	}
	c.applyNotesEnv(in.Env)
	if err := c.resolveUnsandboxed(in.Env["HOME"]); err != nil {
		return Config{}, err
	}
	c.applyFlags(in.Flags)
	if err := c.validate(); err != nil {
		return Config{}, err
	}
	c.applyWebEnv(in.Env)
	if err := c.resolveProvider(in); err != nil {
		return c, err
	}
	return c, nil
}

// Origin is where setting key came from.
func (c *Config) Origin(key string) string {
	if o := c.Origins[key]; o != "" {
		return o
	}
	return "default"
}

func (c *Config) set(key, origin string) { c.Origins[key] = origin }

// loadFile decodes one TOML file over c; a missing file is not an error.
// A project's file is restricted (see trust.go).
func (c *Config) loadFile(path string, project, trusted bool) (bool, error) {
	data, err := readConfigFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read config: %w", err)
	}
	before := c.clone() // deep: Decode reuses slices in place
	hooks := c.Hooks
	c.Hooks = Hooks{} // each file's hooks add to the ones before (Hooks.after)
	shell := c.Shell.clone()
	progs := maps.Clone(c.Programs)
	md, err := toml.Decode(string(data), c)
	if err != nil {
		return false, fmt.Errorf("config file %s: %w", path, err)
	}
	if k, want := miscasedKey(md); k != "" {
		return false, fmt.Errorf("config file %s: %s is not a setting: write it %s (settings are lower case)", path, quoteKey(k), want)
	}
	c.keepModelFields(&before, md)
	if project {
		var raw map[string]any
		toml.Decode(string(data), &raw) // decoded above already: cannot fail
		defer c.restrictProject(before, md, raw, path, trusted)
	}
	projectShell := c.keepUserShell(path, md, shell)
	projectProgs := c.keepUserPrograms(path, md, progs)
	if und := md.Undecoded(); len(und) > 0 {
		k := und[0].String()
		if looksLikeSecret(k) {
			return false, fmt.Errorf("config file %s: %s is not a setting: keys are never stored in config files; set the provider's variable (like GEMINI_API_KEY), or name another one with api_key_env", path, quoteKey(k))
		}
		return false, errors.New(unknownKeyError(path, k))
	}
	c.MCP.claim(path)
	c.Hooks = hooks.after(c.Hooks, path)
	c.LSP.claim(path)
	for _, k := range md.Keys() {
		if projectShell && k[0] == "shell" || projectProgs && k[0] == "programs" {
			continue
		}
		if t := md.Type(k...); t != "Table" {
			c.set(k.String(), path)
		}
	}
	return true, nil
}

// envVars are the AGENT_* variables and the settings they set.
var envVars = []struct{ name, key string }{
	{"AGENT_PROVIDER", "provider"},
	{"AGENT_MODEL", "model"},
	{"AGENT_BASE_URL", "base_url"},
	{"AGENT_API_KEY_ENV", "api_key_env"},
	{"AGENT_MAX_ITERATIONS", "max_iterations"},
	{"AGENT_APPROVAL", "approval"},
	{"AGENT_TOOL_TIMEOUT", "tool_timeout"},
	{"AGENT_MODEL_TIMEOUT", "model_timeout"},
	{"AGENT_STDIN_TIMEOUT", "stdin_timeout"},
	{"AGENT_CONTEXT_WINDOW", "context_window"},
	{"AGENT_REASONING", "reasoning"},
}

func (c *Config) applyEnv(env map[string]string) error {
	for _, e := range envVars {
		v := strings.TrimSpace(env[e.name])
		if v == "" {
			continue
		}
		var err error
		switch e.key {
		case "provider":
			c.Provider = v
		case "model":
			c.Model = v
		case "base_url":
			c.BaseURL = v
		case "api_key_env":
			c.APIKeyEnv = v
		case "approval":
			c.Approval = v
		case "max_iterations":
			c.MaxIterations, err = envInt(v, "20")
		case "tool_timeout":
			err = envDuration(&c.ToolTimeout, v)
		case "model_timeout":
			err = envDuration(&c.ModelTimeout, v)
		case "stdin_timeout":
			err = envDuration(&c.StdinTimeout, v)
		case "context_window":
			c.ContextWindow, err = envInt(v, "32768")
		case "reasoning":
			c.Reasoning = v
		}
		if err != nil {
			return fmt.Errorf("%s=%s: %w", e.name, quoteKey(v), err)
		}
		c.set(e.key, "env "+e.name)
	}
	return nil
}

// envInt reads a whole number from a variable; the error says what was
// wrong in words, with an example, not as strconv does.
func envInt(v, example string) (int, error) {
	n, err := strconv.Atoi(v)
	switch {
	case errors.Is(err, strconv.ErrRange):
		return 0, fmt.Errorf("too large (e.g. %s)", example)
	case err != nil:
		return 0, fmt.Errorf("not a whole number (e.g. %s)", example)
	}
	return n, nil
}

// envDuration reads a duration from a variable.
func envDuration(d *Duration, v string) error {
	if d.UnmarshalText([]byte(v)) != nil {
		return errors.New("not a duration (e.g. 90s, 2m or 1h30m)")
	}
	return nil
}

func (c *Config) applyFlags(f Flags) {
	str := func(v string, dst *string, key, flag string) {
		if v != "" {
			*dst = v
			c.set(key, "flag --"+flag)
		}
	}
	str(f.Provider, &c.Provider, "provider", "provider")
	str(f.Model, &c.Model, "model", "model")
	str(f.BaseURL, &c.BaseURL, "base_url", "base-url")
	str(f.APIKeyEnv, &c.APIKeyEnv, "api_key_env", "api-key-env")
	str(f.Approval, &c.Approval, "approval", "approval")
	str(f.Reasoning, &c.Reasoning, "reasoning", "reasoning")
	if f.ContextWindow != 0 {
		c.ContextWindow = f.ContextWindow
		c.set("context_window", "flag --context-window")
	}
	if f.MaxIterations != 0 {
		c.MaxIterations = f.MaxIterations
		c.set("max_iterations", "flag --max-iterations")
	}
	if f.ToolTimeout != 0 {
		c.ToolTimeout = Duration(f.ToolTimeout)
		c.set("tool_timeout", "flag --tool-timeout")
	}
	if f.ModelTimeout != 0 {
		c.ModelTimeout = Duration(f.ModelTimeout)
		c.set("model_timeout", "flag --model-timeout")
	}
}

// MinModelTimeout is the shortest model_timeout accepted.
const MinModelTimeout = time.Second

func (c *Config) validate() error {
	bad := func(key string, v any, want string) error {
		return fmt.Errorf("%s = %v (from %s): %s", key, v, c.Origin(key), want)
	}
	switch {
	case c.Approval != "ask" && c.Approval != "auto" && c.Approval != "never":
		return bad("approval", strconv.Quote(c.Approval), "use ask, auto or never")
	case c.MaxIterations < 1:
		return bad("max_iterations", c.MaxIterations, "use a number of 1 or more")
	case c.ToolTimeout <= 0:
		return bad("tool_timeout", c.ToolTimeout, "use a positive duration like 60s")
	case c.ModelTimeout < Duration(MinModelTimeout):
		// Below a second no real model can answer: every call would
		// fail as silent.
		return bad("model_timeout", c.ModelTimeout, "use at least 1s, like 2m")
	case c.StdinTimeout <= 0:
		return bad("stdin_timeout", c.StdinTimeout, "use a positive duration like 10m")
	case c.Retry.Attempts < 1:
		return bad("retry.attempts", c.Retry.Attempts, "use 1 (no retry) or more")
	case c.Retry.MaxTime <= 0:
		return bad("retry.max_time", c.Retry.MaxTime, "use a positive duration like 2m")
	case c.Tree.Budget < 1:
		return bad("tree.budget", c.Tree.Budget, "use a number of entries of 1 or more")
	case c.Tree.Style != "emoji" && c.Tree.Style != "plain":
		return bad("tree.style", strconv.Quote(c.Tree.Style), "use emoji or plain")
	case c.Files.ReadLimit < minReadLimit || c.Files.ReadLimit > maxReadLimit:
		return bad("files.read_limit", strconv.Quote(c.Files.ReadLimit.String()), "out of range; use a size from "+minReadLimit.String()+" to "+maxReadLimit.String()+", like 1MiB")
	case c.Backups.MaxAge <= 0:
		return bad("backups.max_age", c.Backups.MaxAge, "use a positive duration like 14d")
	case c.Backups.MaxSize <= 0:
		return bad("backups.max_size", c.Backups.MaxSize, "use a positive size like 100MiB")
	}
	if err := c.validatePrograms(); err != nil {
		return err
	}
	if err := c.validateShell(); err != nil {
		return err
	}
	if err := c.validatePermissions(); err != nil {
		return err
	}
	if err := c.validateWeb(); err != nil {
		return err
	}
	if err := c.validateNotes(); err != nil {
		return err
	}
	if err := c.validateHooks(); err != nil {
		return err
	}
	if err := c.validateChat(); err != nil {
		return err
	}
	if err := c.validateLSP(); err != nil {
		return err
	}
	if err := c.validateAgents(); err != nil {
		return err
	}
	return c.validateContext()
}
