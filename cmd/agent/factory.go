package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/agentcli/agent/agent/app"
	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/conversation"
	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/llm/providers"
	ttsui "github.com/agentcli/agent/agent/ui/tts"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/notes"
	"github.com/agentcli/agent/tools/programs"
	"github.com/agentcli/agent/tools/sandbox"
	"github.com/agentcli/agent/tools/sandbox/backup"
	"github.com/agentcli/agent/tools/shell"
	"github.com/agentcli/agent/tts"
)

// factory supplies what the commands need from the world outside the
// agent: the environment, the streams, the configuration with its trust
// question, the provider constructor, the helper programs, the backup
// key (gh's Factory pattern). Conversations, the tool catalog and what
// agent serve offers are built by the conversation package's Builder,
// which the factory fills in (builder). Tests build one with hooks that
// swap a part (a scripted model, test tools) instead of swapping
// commands.
type factory struct {
	io *streams

	// newModel builds the configured provider's model; providers.New when
	// nil. Tests point it at a scripted model.
	newModel func(ctx context.Context, cfg config.Config) (llm.Model, error)
	// newTools builds the tools of a project; the agent's own when nil.
	// Tests give a smaller set.
	newTools func(ctx context.Context, in conversation.ToolInput) (*conversation.ToolSet, error)
	// env is the environment; os.Environ when nil.
	env map[string]string
	// now is the clock of system prompts; time.Now when nil.
	now func() time.Time
	// trust is --trust: the project is trusted for this process.
	trust bool
	// stdinNotice is how long `agent run` waits for piped input before
	// saying so; stdinNotice (3 s) when 0. Tests shorten it.
	stdinNotice time.Duration

	// progs are the helper-program resolvers, by project folder (see
	// programs.go).
	progMu sync.Mutex
	progs  map[string]*programs.Resolver

	// answers are the trust answers given in this process.
	answers config.TrustAnswers

	// key signs the backups (backupKey), loaded once.
	keyOnce sync.Once
	key     []byte
}

func newFactory(io *streams) *factory { return &factory{io: io} }

// builder is the conversation package's Builder, with this factory's
// parts.
func (f *factory) builder() *app.Builder {
	return &app.Builder{
		Config:      f.loadConfig,
		LocalConfig: f.localConfig,
		Model:       f.model,
		Tools:       f.newTools,
		UserDir:     userConfigDir(f.environ()),
		Now:         f.now,
		Warn:        f.warn,
		BackupKey:   f.backupKey,
		Programs:    f.programs,
		Version:     version,
		Speech:      func(cfg config.Config) tts.Settings { return ttsui.SpeechSettings(cfg, f.environ(), "") },
		Notes: func(cfg config.Config, root string) notes.Store {
			return app.LazyNotes(cfg, root, f.environ())
		},
		MCP: func(ctx context.Context, cfg config.Config, root string, progs *programs.Resolver, reg *tools.Registry, watch *shell.GitWatch) (func() error, error) {
			setup := app.MCPSetup{Version: version, Watch: watch, Alert: f.warn, UserDir: userConfigDir(f.environ())}
			return app.AddMCPTools(ctx, cfg, root, progs, reg, setup, f.warn)
		},
	}
}

// backupKey is the key that signs this user's backups, loaded once. A
// key that cannot be kept is said once on stderr: the backups are then
// signed with a key of this process only, so undo works while it runs
// and later needs --force.
func (f *factory) backupKey() []byte {
	f.keyOnce.Do(func() {
		var err error
		f.key, err = backup.LoadKey(userConfigDir(f.environ()))
		if err != nil && f.io != nil {
			f.warn(err.Error() + "; this run's backups can be undone while it runs, later only with --force")
		}
	})
	return f.key
}

// shellOptions are the [shell] settings as run_command's options.
func shellOptions(cfg config.Config) shell.Options { return app.ShellOptions(cfg) }

// environ returns the environment the configuration is read from.
func (f *factory) environ() map[string]string {
	if f.env != nil {
		return f.env
	}
	return config.EnvMap(os.Environ())
}

// userConfigDir is $XDG_CONFIG_HOME/agent, or ~/.config/agent; "" when
// neither variable is set.
func userConfigDir(env map[string]string) string {
	if dir := env["XDG_CONFIG_HOME"]; dir != "" {
		return filepath.Join(dir, "agent")
	}
	if home := env["HOME"]; home != "" {
		return filepath.Join(home, ".config", "agent")
	}
	return ""
}

// loadConfig loads the effective configuration for the project folder
// dir: flags over the environment over dir/.agent/config.toml over the
// user's config file. The project's settings that need trust apply only
// once it is trusted (asked on the terminal, see trust.go). With no
// provider configured and no key set, it asks the local servers (Ollama,
// llama.cpp, LM Studio; briefly, all at once) whether they are there.
// The question is asked once per folder and process (see TrustAnswers).
func (f *factory) loadConfig(ctx context.Context, dir string, flags config.Flags) (config.Config, error) {
	cfg, err := f.readConfig(ctx, dir, flags, false)
	if err != nil && !errors.Is(err, config.ErrNoProvider) {
		return cfg, err
	}
	trusted, asked := f.answers.Trusted(f.environ(), dir)
	if !asked {
		var terr error
		if trusted, terr = f.settleTrust(ctx, dir, cfg); terr != nil {
			return cfg, terr
		}
		f.answers.Keep(f.environ(), dir, trusted)
	}
	if trusted {
		cfg, err = f.readConfig(ctx, dir, flags, true)
	}
	cfg.ProjectTrusted = trusted
	return cfg, err
}

// readConfig loads the configuration with the project trusted or not,
// asking nothing.
func (f *factory) readConfig(ctx context.Context, dir string, flags config.Flags, trusted bool) (config.Config, error) {
	env := f.environ()
	return config.Load(config.Input{
		Files:   config.DefaultFiles(env, dir),
		Project: config.ProjectFile(dir),
		Trusted: trusted || f.trust || config.IsTrusted(env, dir),
		Env:     env,
		Flags:   flags,
		Probe:   config.LocalProbe(ctx, nil),
	})
}

// localConfig loads the configuration the way a run does, for commands
// that need no provider (prompt, backups, undo, tools): a missing key is
// no error here, and no local server is probed.
func (f *factory) localConfig(root string) (config.Config, error) {
	env := f.environ()
	trusted := f.trust || config.IsTrusted(env, root)
	cfg, err := config.Load(config.Input{Files: config.DefaultFiles(env, root), Project: config.ProjectFile(root), Trusted: trusted, Env: env})
	if err != nil && !errors.Is(err, config.ErrNoProvider) {
		return config.Config{}, err
	}
	cfg.ProjectTrusted = trusted
	return cfg, nil
}

// model builds the configured model, through the test hook when set.
func (f *factory) model(ctx context.Context, cfg config.Config) (llm.Model, error) {
	if f.newModel != nil {
		return f.newModel(ctx, cfg)
	}
	return providers.New(ctx, cfg)
}

// fileRoot returns the file tools' sandbox for the project folder dir
// with the configured file settings. The caller closes it.
func (f *factory) fileRoot(dir string, cfg config.Config) *sandbox.Root {
	return f.builder().FileRoot(dir, cfg)
}

// configuredFileRoot returns the sandbox for the project folder dir (""
// is the current folder) with the configured file settings, so that
// every command prunes backups by the same rules.
func (f *factory) configuredFileRoot(dir string) (*sandbox.Root, error) {
	dir, err := projectFolder(dir)
	if err != nil {
		return nil, err
	}
	cfg, err := f.localConfig(dir)
	if err != nil {
		return nil, err
	}
	return f.fileRoot(dir, cfg), nil
}

// catalog builds the tool set of the project at root with a fresh file
// session, for commands that only show or parse (tools, parse). The
// caller closes it.
func (f *factory) catalog(ctx context.Context, root string, cfg config.Config) (*conversation.ToolSet, error) {
	return f.builder().Catalog(ctx, root, cfg)
}
