package main

import (
	"context"
	"errors"
	"os"
	"sync"
	"time"

	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/llm/providers"
	"github.com/agentcli/agent/prompt"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/fsedit"
	"github.com/agentcli/agent/tools/jobs"
	"github.com/agentcli/agent/tools/notes"
	"github.com/agentcli/agent/tools/programs"
)

// factory is the only place that builds concrete things: the
// configuration, the model, the tool registry, and the conversations that
// run, the chat, the demo, the self-checks and serve all use (gh's
// Factory pattern). Commands receive it and ask for what they need; tests
// build one with hooks that swap a part (a scripted model, test tools)
// instead of swapping commands.
type factory struct {
	io *streams

	// newModel builds the configured provider's model; providers.New when
	// nil. Tests point it at a scripted model.
	newModel func(ctx context.Context, cfg config.Config) (llm.Model, error)
	// newTools builds the tools of a conversation; builtinTools when
	// nil. Tests give a smaller set.
	newTools func(ctx context.Context, b toolBuild) (*toolSet, error)
	// env is the environment; os.Environ when nil.
	env map[string]string
	// now is the clock of system prompts; time.Now when nil.
	now func() time.Time
	// trust is --trust: the project is trusted for this process.
	trust bool

	// progs are the helper-program resolvers, by project folder (see
	// programs.go).
	progMu sync.Mutex
	progs  map[string]*programs.Resolver

	// key signs the backups (backupKey), loaded once.
	keyOnce sync.Once
	key     []byte
}

func newFactory(io *streams) *factory { return &factory{io: io} }

// environ returns the environment the configuration is read from.
func (f *factory) environ() map[string]string {
	if f.env != nil {
		return f.env
	}
	return config.EnvMap(os.Environ())
}

// loadConfig loads the effective configuration for the project folder
// dir: flags over the environment over dir/.agent/config.toml over the
// user's config file. The project's settings that need trust apply only
// once it is trusted (asked on the terminal, see trust.go). With no
// provider configured and no key set, it asks the local servers (Ollama,
// llama.cpp, LM Studio; briefly, all at once) whether they are there.
func (f *factory) loadConfig(ctx context.Context, dir string, flags config.Flags) (config.Config, error) {
	cfg, err := f.readConfig(ctx, dir, flags, false)
	if err != nil && !errors.Is(err, config.ErrNoProvider) {
		return cfg, err
	}
	trusted, terr := f.settleTrust(ctx, dir, cfg)
	if terr != nil {
		return cfg, terr
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
// with the configured file settings. Listings and searches hide what the
// file tree hides (prompt's rules). The caller closes it.
func (f *factory) fileRoot(dir string, cfg config.Config) *fsedit.Root {
	return f.fileRootWith(dir, fileOptions(cfg))
}

// fileRootWith is fileRoot with the options given.
func (f *factory) fileRootWith(dir string, opts fsedit.Options) *fsedit.Root {
	opts.NewIgnorer = func(dir string) (fsedit.Ignorer, error) { return prompt.NewIgnore(dir) }
	opts.BackupKey = f.backupKey
	return fsedit.NewRoot(dir, opts)
}

// configuredFileRoot returns the sandbox for the project folder dir (""
// is the current folder) with the configured file settings, so that
// every command prunes backups by the same rules.
func (f *factory) configuredFileRoot(dir string) (*fsedit.Root, error) {
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

// fileOptions maps the configuration's file and backup settings onto the
// file tools' options.
func fileOptions(cfg config.Config) fsedit.Options {
	return fsedit.Options{
		MaxReadBytes:   int64(cfg.Files.ReadLimit),
		BackupMaxAge:   time.Duration(cfg.Backups.MaxAge),
		BackupMaxBytes: int64(cfg.Backups.MaxSize),
		AllowSecrets:   cfg.Files.AllowSecrets,
	}
}

// toolBuild is what building a conversation's tools takes.
type toolBuild struct {
	root string
	cfg  config.Config
	// files is the file tools' session of the conversation: what the
	// model read, kept with the conversation.
	files *fsedit.Session
	// env is the environment (keys of engines other than the chat's).
	env map[string]string
	// warn says one line to the user (a server that did not start).
	warn func(string)
	// readOnly leaves out the tools that run programs (for serving over
	// MCP, where nobody approves a command).
	readOnly bool
	// progs finds the helper programs (bwrap, espeak-ng, MCP servers);
	// buildTools sets it.
	progs *programs.Resolver
}

// toolSet is a conversation's registry and what must be closed with it
// (stores, clients, the sandbox's folder handle).
type toolSet struct {
	reg *tools.Registry
	// essential names the tools the small-window prompt describes (the
	// file tools and run_command); the others it only names. Empty means
	// every tool.
	essential []string
	closers   []func() error
	// notes is the notes store behind the note tools; nil when they are
	// off.
	notes notes.Store
	// jobs are the conversation's background jobs; nil without
	// run_command.
	jobs *jobs.Manager
}

// Close closes everything the set opened, the last opened first.
func (s *toolSet) Close() error {
	var errs []error
	for i := len(s.closers) - 1; i >= 0; i-- {
		errs = append(errs, s.closers[i]())
	}
	s.closers = nil
	return errors.Join(errs...)
}

// buildTools builds a conversation's tools with the configured time
// limit: the one registry builder, where every tool family is added.
func (f *factory) buildTools(ctx context.Context, b toolBuild) (*toolSet, error) {
	build := f.newTools
	if build == nil {
		build = builtinTools
	}
	if b.progs == nil {
		b.progs = f.programs(b.root, b.cfg)
	}
	set, err := build(ctx, b)
	if err != nil {
		return nil, err
	}
	set.reg.Timeout = time.Duration(b.cfg.ToolTimeout)
	return set, nil
}

// catalog builds the tool set of the project at root with a fresh file
// session, for commands that only show or parse (tools, parse, prompt).
// The caller closes it.
func (f *factory) catalog(ctx context.Context, root string, cfg config.Config) (*toolSet, error) {
	return f.buildCatalog(ctx, root, cfg, false)
}

// buildCatalog is catalog, without the tools that run programs when
// readOnly.
func (f *factory) buildCatalog(ctx context.Context, root string, cfg config.Config, readOnly bool) (*toolSet, error) {
	fr := f.fileRoot(root, cfg)
	set, err := f.buildTools(ctx, toolBuild{root: root, cfg: cfg, files: fsedit.NewSession(fr), env: f.environ(), warn: f.warn, readOnly: readOnly})
	if err != nil {
		fr.Close()
		return nil, err
	}
	set.closers = append([]func() error{fr.Close}, set.closers...)
	return set, nil
}
