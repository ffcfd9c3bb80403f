package main

import (
	"context"
	"time"

	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/prompt"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/audio"
	"github.com/agentcli/agent/tools/fsedit"
	"github.com/agentcli/agent/tools/jobs"
	"github.com/agentcli/agent/tools/notes"
	"github.com/agentcli/agent/tools/shell"
	"github.com/agentcli/agent/tools/web"
	"github.com/agentcli/agent/tts"
)

// builtinTools is the agent's own tool set: the file tools of the
// conversation's session, then each optional family that is available.
// It is the one place where tool families are added.
func builtinTools(ctx context.Context, b toolBuild) (*toolSet, error) {
	set := &toolSet{reg: tools.NewRegistry(b.files.Tools()...)}
	if !b.readOnly {
		// Background jobs: run_command's background flag, job_output
		// and job_stop; stopped when the conversation closes.
		set.jobs = jobsManager(b)
		set.closers = append(set.closers, set.jobs.Close)
		set.reg.Add(shellTool(b, set.jobs))
		set.reg.Add(webTool(b))
	}
	set.essential = set.reg.Names()
	if set.jobs != nil { // after the essential tools: the small-window form only names them
		for _, t := range jobs.Tools(set.jobs) {
			set.reg.Add(t)
		}
	}
	if t := skillTool(b); t != nil { // skills: see skills.go
		set.reg.Add(t)
	}
	if t := audioTool(ctx, b); t != nil {
		set.reg.Add(t)
	}
	if b.cfg.NotesOn() {
		// Opened on first use: a run that never touches a note never
		// creates the database.
		store := lazyNotes(b.cfg, b.root, b.env)
		for _, t := range notes.Tools(store) {
			set.reg.Add(t)
		}
		set.closers = append(set.closers, store.Close)
		set.notes = store
	}
	// Other servers' tools, waiting at most mcp.timeout for them; a
	// project's own servers only once the project is trusted.
	warn := b.warn
	if warn == nil {
		warn = func(string) {}
	}
	closeMCP, err := addMCPTools(ctx, b.cfg, b.root, b.progs, set.reg, warn)
	if err != nil {
		return nil, err
	}
	set.closers = append(set.closers, closeMCP)
	return set, nil
}

// audioTool is audio_generation over the speech engines that are
// available (a Gemini key, espeak-ng); nil when there are none, so the
// model is not offered a tool that cannot work.
func audioTool(ctx context.Context, b toolBuild) tools.Tool {
	s := speechSettings(b.cfg, b.env, "")
	s.LookPath = b.progs.Find
	speakers, err := tts.Open(ctx, s)
	if err != nil || len(speakers) == 0 {
		return nil
	}
	return audio.New(audioWriter{b.files.Root()}, speakers...)
}

// audioWriter writes the audio tool's files through the sandbox, with a
// backup of any file replaced, so that undo restores or removes it.
type audioWriter struct{ root *fsedit.Root }

var wavOnly = fsedit.PutOptions{Extensions: []string{".wav"}, Overwrite: true}

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

// shellTool is run_command, configured from the user's own [shell] table
// only (a project's is never read, see agent/config).
func shellTool(b toolBuild, jobs *jobs.Manager) tools.Tool {
	o := shellOptions(b.cfg)
	o.Jobs = jobs
	o.Programs = b.progs
	o.Secrets = b.cfg.SecretVars()
	o.NewIgnorer = func(dir string) (shell.Ignorer, error) { return prompt.NewIgnore(dir) }
	o.Stream = func(ctx context.Context, b []byte) { tools.Output(ctx)(b) }
	return shell.New(b.root, o)
}

// shellOptions are the [shell] settings as run_command's options.
func shellOptions(cfg config.Config) shell.Options {
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

// webTool is web_fetch, its allowed hosts from the user's own [web]
// table only (a project's is never read, see agent/config). Like
// run_command it is left out where nobody approves (serving over MCP).
func webTool(b toolBuild) tools.Tool {
	return web.New(web.Options{
		AllowHosts: b.cfg.Web.AllowHosts,
		UserAgent:  "agent/" + version + " (web_fetch)",
	})
}
