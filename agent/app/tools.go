package app

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/conversation"
	"github.com/agentcli/agent/prompt"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/ask"
	"github.com/agentcli/agent/tools/audio"
	"github.com/agentcli/agent/tools/gitcommit"
	"github.com/agentcli/agent/tools/jobs"
	"github.com/agentcli/agent/tools/lsp"
	"github.com/agentcli/agent/tools/notes"
	"github.com/agentcli/agent/tools/sandbox"
	"github.com/agentcli/agent/tools/shell"
	"github.com/agentcli/agent/tools/todo"
	"github.com/agentcli/agent/tools/web"
	"github.com/agentcli/agent/tts"
)

// tools builds a project's tools with the configured time limit, through
// the Builder's Tools hook when it is set.
func (b *Builder) tools(ctx context.Context, in conversation.ToolInput) (*conversation.ToolSet, error) {
	if in.Programs == nil {
		in.Programs = b.programs(in.Root, in.Cfg)
	}
	build := b.Tools
	if build == nil {
		build = b.builtinTools
	}
	set, err := build(ctx, in)
	if err != nil {
		return nil, err
	}
	set.Reg.Timeout = time.Duration(in.Cfg.ToolTimeout)
	return set, nil
}

// builtinTools is the agent's own tool set: the file tools of the
// session, then each family that is available. It is the one place
// where tools are added: a new tool is its folder and one line here.
func (b *Builder) builtinTools(ctx context.Context, in conversation.ToolInput) (*conversation.ToolSet, error) {
	set := &conversation.ToolSet{Reg: tools.NewRegistry(in.Files.Tools()...)}
	// Background jobs: run_command's background flag, job_output and
	// job_stop; stopped when the conversation closes.
	set.Jobs = jobsManager(in.Root)
	set.Closers = append(set.Closers, set.Jobs.Close)
	// The git guard of the project's programs (its MCP servers), which
	// run_command asks before each command.
	watch := shell.NewGitWatch(in.Root, ShellOptions(in.Cfg))
	set.Reg.Add(b.shellTool(in, set.Jobs, watch))
	set.Reg.Add(web.New(web.Options{AllowHosts: in.Cfg.Web.AllowHosts, UserAgent: "agent/" + b.Version + " (web_fetch)"}))
	set.Essential = set.Reg.Names()
	for _, t := range jobs.Tools(set.Jobs) { // after the essential tools: the small-window form only names them
		set.Reg.Add(t)
	}
	if t := b.webSearchTool(in); t != nil {
		set.Reg.Add(t)
	} else {
		set.LeftOut = append(set.LeftOut, web.SearchDefinition())
	}
	if t := b.skillTool(in); t != nil {
		set.Reg.Add(t)
	}
	// Sub-agents: the task tool, which runs them with the conversation's
	// tools; an explore call (the tool it replaced) is pointed at it.
	task := b.taskToolFor(in, set, b.taskAgents(in))
	set.Link = func(c *conversation.Conversation) { task.conv = c }
	set.Agents = task.agents
	set.Reg.Add(task)
	set.Reg.Retire(ExploreAgent, `explore is now an agent of the task tool: call task with agent "explore" and your question as prompt`)
	set.Reg.Add(todo.New()) // the plan, and the questions, of working with a person
	set.Reg.Add(ask.New())
	if t := gitCommitTool(in); t != nil {
		set.Reg.Add(t)
	}
	// Language servers: the diagnostics of what a call changed added to
	// its response (the registry's After step), the lsp tool when one
	// can start; ended with the conversation.
	if m := b.lspManager(in); m != nil {
		set.LSP = m
		set.Reg.After = m.AfterCall
		set.Closers = append(set.Closers, m.Close)
		if m.HasServers() {
			set.Reg.Add(lsp.Tool(m))
		}
	}
	if t := b.audioTool(ctx, in); t != nil {
		set.Reg.Add(t)
	} else {
		set.LeftOut = append(set.LeftOut, audio.Definition())
	}
	if in.Cfg.NotesOn() && b.Notes != nil {
		// Opened on first use: a run that never touches a note never
		// creates the database.
		store := b.Notes(in.Cfg, in.Root)
		for _, t := range notes.Tools(store) {
			set.Reg.Add(t)
		}
		set.Closers = append(set.Closers, store.Close)
		set.Notes = store
	} else {
		for _, t := range notes.Tools(nil) {
			set.LeftOut = append(set.LeftOut, t.Definition())
		}
	}
	// Other servers' tools, waiting at most mcp.timeout for them; a
	// project's own servers only once the project is trusted.
	if b.MCP != nil && !in.NoMCP {
		closeMCP, err := b.MCP(ctx, in.Cfg, in.Root, in.Programs, set.Reg, watch)
		if err != nil {
			set.Close()
			return nil, err
		}
		set.Closers = append(set.Closers, closeMCP)
	}
	// The servers the person chose for this conversation (an editor's).
	if !in.NoMCP && len(in.MCP) > 0 {
		set.Closers = append(set.Closers, AddChosenMCPTools(ctx, in.Cfg, in.Root, in.MCP, in.Programs, set.Reg, b.Version, b.warn))
	}
	return set, nil
}

// webSearchTool is web_search over the search backend of the user's
// own [web] table; nil when none is set, or it cannot work (its key is
// not set: said in one line), so the model is not offered a tool that
// cannot work.
func (b *Builder) webSearchTool(in conversation.ToolInput) tools.Tool {
	w := in.Cfg.Web
	if w.Search == "" {
		return nil
	}
	s, err := web.NewSearch(web.SearchOptions{
		Options: web.Options{AllowHosts: w.AllowHosts, UserAgent: "agent/" + b.Version + " (web_search)"},
		Backend: w.Search, URL: w.SearchURL, Key: w.SearchKey, KeyName: w.SearchKeyEnv,
	})
	if err != nil {
		b.warn("web_search is not offered: " + err.Error())
		return nil
	}
	return s
}

// audioTool is audio_generation over the speech engines that are
// available (a Gemini key, espeak-ng); nil when there are none, so the
// model is not offered a tool that cannot work.
func (b *Builder) audioTool(ctx context.Context, in conversation.ToolInput) tools.Tool {
	if b.Speech == nil {
		return nil
	}
	s := b.Speech(in.Cfg)
	s.LookPath = in.Programs.Find
	// Its trusted PATH, and none of the agent's keys.
	s.Env = in.Programs.Environ(tools.WithoutSecrets(os.Environ(), in.Cfg.SecretVars(), in.Cfg.SecretValues()))
	speakers, err := tts.Open(ctx, s)
	if err != nil || len(speakers) == 0 {
		return nil
	}
	return audio.New(audioWriter{in.Files.Root()}, speakers...)
}

// audioWriter writes the audio tool's files through the sandbox, with a
// backup of any file replaced, so that undo restores or removes it.
type audioWriter struct{ root *sandbox.Root }

var wavOnly = sandbox.PutOptions{Extensions: []string{".wav"}, Overwrite: true}

func (w audioWriter) Check(_ context.Context, rel string) (*tools.Result, error) {
	return w.root.CheckPut(rel, wavOnly)
}

func (w audioWriter) Put(ctx context.Context, rel string, data []byte) (bool, *tools.Result, error) {
	res, err := w.root.Put(ctx, rel, data, wavOnly)
	if err != nil || res.Refused != nil {
		return false, res.Refused, err
	}
	return !res.Created, nil, nil
}

// gitCommitTool is git_commit for a project inside a git repository,
// with the git found in trusted places; nil when either is missing, so
// the model is not offered a tool that cannot work. Its settings come
// from the user's own configuration only.
func gitCommitTool(in conversation.ToolInput) tools.Tool {
	if !inRepository(in.Root) {
		return nil
	}
	git, err := in.Programs.Find("git")
	if err != nil {
		return nil
	}
	return gitcommit.New(in.Root, gitcommit.Options{Git: git, Hooks: in.Cfg.Git.Hooks, AutoCommit: in.Cfg.Git.AutoCommit, Secret: sandbox.IsSecretName})
}

// inRepository reports whether dir or a folder above it has a .git.
func inRepository(dir string) bool {
	for {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return true
		}
		up := filepath.Dir(dir)
		if up == dir {
			return false
		}
		dir = up
	}
}

// jobsManager is the background jobs of a conversation in the project
// root. The state folder is made the way the project always makes it
// (EnsureStateDir), when the first job is recorded.
func jobsManager(root string) *jobs.Manager {
	return jobs.NewManager(jobs.Options{
		Path:    filepath.Join(root, jobs.DefaultPath),
		LogDir:  filepath.Join(root, jobs.DefaultLogDir),
		Prepare: func() error { return conversation.EnsureStateDir(root) },
	})
}

// shellTool is run_command, configured from the user's own [shell] table
// only (a project's is never read, see agent/config), its background
// jobs kept by jm.
func (b *Builder) shellTool(in conversation.ToolInput, jm *jobs.Manager, watch *shell.GitWatch) tools.Tool {
	o := ShellOptions(in.Cfg)
	o.Jobs, o.Watch = jm, watch
	o.Masked = conversation.OtherRecords(b.UserDir, in.Root)
	o.Programs = in.Programs
	o.Secrets, o.SecretValues = in.Cfg.SecretVars(), in.Cfg.SecretValues()
	o.NewIgnorer = func(dir string) (shell.Ignorer, error) { return prompt.NewIgnore(dir) }
	o.Stream = func(ctx context.Context, b []byte) { tools.Output(ctx)(b) }
	return shell.New(in.Root, o)
}

// ShellOptions are the [shell] settings as run_command's options.
func ShellOptions(cfg config.Config) shell.Options {
	s := cfg.Shell
	return shell.Options{
		NoSandbox:    s.Sandbox == "off",
		Network:      s.Network,
		NetworkAllow: s.NetworkAllow,
		Allow:        s.Allow,
		Caches:       s.Caches,
		ToolDirs:     s.ToolDirs,
		Timeout:      time.Duration(s.Timeout),
		MemoryLimit:  int64(s.MemoryLimit),
		TmpSize:      int64(s.TmpSize),
	}
}
