package shell

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agentcli/agent/internal/termtext"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/programs"
)

//go:embed run_command.md
var description string

// Tool is run_command for one project folder. It implements tools.Tool
// and tools.Previewer; Allowed says which calls need no question.
type Tool struct {
	root string // the project folder, absolute, links resolved
	opts Options
	def  tools.Definition

	once     sync.Once // finds bubblewrap and the limits on first use
	bwrap    string
	bwrapErr error // why there is no bwrap, when there is none
	limit    procLimit
}

// New returns run_command for the project folder root.
func New(root string, opts Options) *Tool {
	opts = opts.withDefaults()
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	maxSec := int(opts.MaxTime / time.Second)
	params := []tools.Param{
		{Name: "command", Kind: tools.String, Required: true, Description: "the command line", Command: true},
		{Name: "timeout", Kind: tools.Integer, Description: fmt.Sprintf("seconds (default %d, max %d)", int(opts.Timeout/time.Second), maxSec)},
	}
	if opts.Jobs != nil {
		params = append(params, backgroundParam)
	}
	return &Tool{root: root, opts: opts, def: tools.Definition{
		Name:        "run_command",
		Description: strings.TrimSpace(description),
		Params:      params,
		Writes:      true,
		Action:      tools.ActionExecute,
		// A shell over the network is a remote code execution service.
		NotServed: true,
		// The command's own timeout decides; this outer limit leaves room
		// for the grace period and the scans before and after it.
		Timeout: opts.MaxTime + opts.Grace + 2*opts.ScanTime + 2*opts.GitScanTime + 30*time.Second,
	}}
}

// Definition describes run_command to the model and the registry.
func (t *Tool) Definition() tools.Definition { return t.def }

// call is a parsed run_command call.
type call struct {
	command string
	timeout time.Duration
	// readOnly are more paths the sandbox mounts read-only (the
	// project's nested repositories).
	readOnly []string
	// background: run as a job (background.go); its timeout is then 0
	// (none) unless the call gave one.
	background bool
	// env are more variables of the command's environment (a job's
	// mark): the agent's own, so what starts the sandbox carries them
	// too (agent jobs stop finds a job's process by its mark).
	env []string
}

func (t *Tool) parse(in tools.Input) (call, *tools.Result) {
	c := call{timeout: t.opts.Timeout}
	c.command, _ = in.Values["command"].(string)
	c.background, _ = in.Values["background"].(bool)
	if strings.TrimSpace(c.command) == "" {
		res := tools.Errorf(tools.CodeSchemaInvalid, "command is empty: give the command line to run, like go test ./...")
		return c, &res
	}
	if strings.ContainsRune(c.command, 0) {
		res := tools.Errorf(tools.CodeSchemaInvalid, "command holds a NUL character, which no command line can")
		return c, &res
	}
	if s, ok := in.Values["timeout"].(int); ok {
		if s < 1 || time.Duration(s)*time.Second > t.opts.MaxTime {
			res := tools.Errorf(tools.CodeSchemaInvalid, "timeout %d is out of range: give 1 to %d seconds", s, int(t.opts.MaxTime/time.Second))
			return c, &res
		}
		c.timeout = time.Duration(s) * time.Second
	} else if c.background {
		c.timeout = 0
	}
	return c, nil
}

func (t *Tool) setup() {
	t.once.Do(func() {
		progs := t.opts.Programs
		if progs == nil {
			path, ok := envMap(t.opts.Env)["PATH"]
			if !ok {
				path = os.Getenv("PATH")
			}
			progs = programs.New(programs.Options{Path: path, Untrusted: Writable(t.root, t.opts)})
		}
		t.limit = findProcLimit(progs.Find)
		if t.opts.NoSandbox {
			return
		}
		t.bwrap = t.opts.Bwrap
		if t.bwrap == "" {
			t.bwrap, t.bwrapErr = FindBwrap(progs.Find)
		} else if _, err := exec.LookPath(t.bwrap); err != nil {
			t.bwrap = ""
		}
	})
}

// ready returns an error Result when no command can run here.
func (t *Tool) ready() *tools.Result {
	t.setup()
	home := envMap(t.opts.Env)["HOME"]
	switch {
	case !t.opts.NoSandbox && t.bwrap == "" && errors.Is(t.bwrapErr, programs.ErrUntrusted):
		res := tools.Errorf(tools.CodePolicyDenied, "run_command needs bubblewrap: %v; no command was run", t.bwrapErr)
		return &res
	case !t.opts.NoSandbox && t.bwrap == "":
		res := tools.Errorf(tools.CodePolicyDenied, "run_command needs bubblewrap, which is not installed (install the package bubblewrap); no command was run")
		return &res
	case t.root == "/" || home != "" && within(t.root, filepath.Clean(home)):
		res := tools.Errorf(tools.CodePolicyDenied, "run_command does not run in %s: the project folder holds the home folder, which the sandbox must hide", t.root)
		return &res
	}
	return nil
}

// Execute runs the command and reports its exit code, output and changes;
// with background = true it starts the command as a job and returns.
func (t *Tool) Execute(ctx context.Context, in tools.Input) (tools.Result, error) {
	c, res := t.parse(in)
	if res == nil {
		res = t.ready()
	}
	if res != nil {
		return *res, nil
	}
	if c.background {
		return t.background(ctx, c)
	}
	b := t.look(&c)
	budget := DefaultBudget
	if t.opts.Budget != nil {
		if n := t.opts.Budget(ctx); n > 0 {
			budget = n
		}
	}
	o, err := t.run(ctx, c, b.net, budget, t.opts.Stream)
	if err != nil && o.out != nil && o.startErr == nil && errors.Is(err, context.Canceled) {
		// The person stopped it: the model is told so, with what the
		// command printed and changed until then.
		res := t.conclude(c, b, o)
		res.Code = tools.CodeInterrupted
		res.Message = fmt.Sprintf("interrupted by the user after %s, before the command ended; its output until then is below", o.took.Round(time.Millisecond))
		if len(res.Changed) > 0 {
			res.Message += "; " + plural(len(res.Changed), "project file") + " changed"
		}
		return res, err
	}
	if err != nil {
		return tools.Result{}, err
	}
	if o.startErr != nil {
		return tools.Errorf(tools.CodeProviderError, "cannot start the command: %v", o.startErr), nil
	}
	return t.conclude(c, b, o), nil
}

// before is what is known of the project before a command starts, for
// the checks after it.
type before struct {
	ig    Ignorer
	files snapshot
	git   *gitGuard // nil without the sandbox
	net   bool
	// planted is what the project's programs (Options.Watch) planted
	// since the last look, moved away before the command; by names them.
	planted    gitReport
	by         subject
	hasPlanted bool
}

// look scans the project before c runs and finds the repositories its
// sandbox mounts read-only (into c.readOnly).
func (t *Tool) look(c *call) before {
	var b before
	if t.opts.NewIgnorer != nil {
		if i, err := t.opts.NewIgnorer(t.root); err == nil {
			b.ig = i
		}
	}
	if t.opts.Watch != nil {
		// First: what a program planted is not the person's.
		b.planted, b.by, b.hasPlanted = t.opts.Watch.before()
	}
	b.files = scan(t.root, b.ig, t.opts.ScanFiles, t.opts.ScanTime)
	if !t.opts.NoSandbox {
		b.git = t.guardGit()
		c.readOnly = b.git.readOnly(t.opts.Caches)
	}
	b.net = t.network(c.command)
	return b
}

// conclude runs the checks after a command (the files it changed, the
// limits it hit, the repositories it planted) and makes its result: for
// a call, its answer; for a job, what its end reports.
func (t *Tool) conclude(c call, b before, o outcome) tools.Result {
	// The guard first, so that the changed files name what is there,
	// not what it moved away.
	var rep gitReport
	if b.git != nil {
		rep = b.git.check(t.opts.GitScanTime)
	}
	after := scan(t.root, b.ig, t.opts.ScanFiles, t.opts.ScanTime)
	r := t.result(c, b.net, o, b.files, after)
	if o.hitLimit {
		r.Message += fmt.Sprintf("; the process limit (%d) was reached: some forks failed", t.opts.ProcLimit)
	}
	if o.oomKilled {
		r.Message += fmt.Sprintf("; killed for memory: the command went over its memory limit of %s", sizeText(t.opts.MemoryLimit))
	}
	if b.hasPlanted {
		addGitReport(&r, b.planted, b.by)
	}
	if b.git != nil {
		t.reportGit(&r, rep)
	}
	return r
}

// outcome is how one command ended.
type outcome struct {
	code      int
	sig       string // the signal that killed it, if one did
	timedOut  bool
	hitLimit  bool // a fork failed for the process limit
	oomKilled bool // a process was killed for the memory limit
	took      time.Duration
	out       *capture
	startErr  error
}

// command is the command of one call, not started, and its cgroup if
// any. In the sandbox, the command's environment is set inside it;
// what starts it (the launcher that joins the cgroups, bubblewrap) gets
// only the agent's own minimum.
func (t *Tool) command(c call, net bool) (*exec.Cmd, *cgroup, error) {
	inner := []string{"/bin/sh", "-c", c.command}
	if t.limit.kind == limitRlimit && !t.opts.NoSandbox {
		// +2: the sandbox's init and the shell count too.
		inner = append([]string{t.limit.prlimit, "--nproc=" + strconv.Itoa(t.opts.ProcLimit+2), "--"}, inner...)
	}
	env := t.opts.Env
	if len(c.env) > 0 {
		env = append(slices.Clip(env), c.env...)
	}
	// A cgroup that cannot be made loses its limit, not the command.
	cg, _ := t.limit.newCgroup(t.opts.ProcLimit+3, t.opts.MemoryLimit) // +3: launcher, bwrap, init
	var dataKiB int64
	if cg == nil || cg.mem == "" {
		dataKiB = max(t.opts.MemoryLimit>>10, 1)
	}
	if t.opts.NoSandbox {
		argv := launch(inner, cg, dataKiB)
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env, cmd.Dir = env, t.root
		return cmd, cg, nil
	}
	sb := t.sandbox(c, net)
	sb.Env, sb.MemoryLimit = env, dataKiB<<10
	cmd, err := sb.command(func(line []string) []string { return launch(line, cg, 0) }, inner...)
	if err != nil {
		if cg != nil {
			cg.remove()
		}
		return nil, nil, err
	}
	cmd.Env = append(cmd.Env, c.env...)
	return cmd, cg, nil
}

// sandbox is the sandbox of one command: the project, the user's
// caches writable and tool folders readable, the nested repositories
// read-only.
func (t *Tool) sandbox(c call, net bool) Sandbox {
	return Sandbox{
		Bwrap:     t.bwrap,
		Root:      t.root,
		Home:      envMap(t.opts.Env)["HOME"],
		ReadOnly:  t.opts.ToolDirs,
		Writable:  t.opts.Caches,
		Protected: c.readOnly,
		Masked:    t.opts.Masked,
		Network:   net,
		TmpSize:   t.opts.TmpSize,
	}
}

func (t *Tool) result(c call, net bool, o outcome, before, after snapshot) tools.Result {
	var res tools.Result
	took, code, sig, out := o.took.Round(time.Millisecond), o.code, o.sig, o.out
	switch {
	case o.timedOut:
		res = tools.Errorf(tools.CodeTimeout, "the command ran past its timeout of %s and was stopped%s; give a longer timeout (at most %s) or run less at once", c.timeout, lastLine(out), t.opts.MaxTime)
	case sig != "":
		res.Message = fmt.Sprintf("killed by signal %s after %s", sig, took)
	default:
		res.Message = fmt.Sprintf("exit code %d after %s", code, took)
	}
	netWord := "off"
	if net {
		netWord = "on"
	}
	res.Metadata = []tools.Attr{
		{Name: "exit_code", Value: strconv.Itoa(code)},
		{Name: "duration", Value: took.String()},
		{Name: "output_bytes", Value: strconv.FormatInt(out.total, 10)},
		{Name: "network", Value: netWord},
	}
	text := out.String()
	if text == "" {
		text = "(no output)\n"
	} else if text[len(text)-1] != '\n' {
		text += "\n"
	}
	switch {
	case before.why != "" || after.why != "":
		why := before.why
		if why == "" {
			why = after.why
		}
		text += fmt.Sprintf("\nChanged files not listed: %s. agent undo cannot revert a command's changes.\n", why)
	default:
		ch := diffSnapshots(before, after)
		res.Metadata = append(res.Metadata, tools.Attr{Name: "changed_files", Value: strconv.Itoa(ch.count())})
		if ch.count() > 0 {
			text += "\n" + ch.render()
			res.Changed = ch.all()
			res.Created, res.Deleted = ch.created, ch.deleted
			if res.Code == "" {
				res.Message += "; " + plural(ch.count(), "project file") + " changed"
			}
		}
	}
	res.Content = text
	return res
}

// plural is n and what, made plural when n is not 1 ("repository" →
// "repositories").
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	if stem, ok := strings.CutSuffix(what, "y"); ok && !strings.HasSuffix(stem, "a") && !strings.HasSuffix(stem, "e") && !strings.HasSuffix(stem, "o") {
		return strconv.Itoa(n) + " " + stem + "ies"
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// lastLine names the last line of output, for a timeout's message: an
// error response carries no content, and the line shows where it hung.
func lastLine(c *capture) string {
	lines := strings.Split(strings.TrimRight(string(c.tail()), "\n"), "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	if last == "" && c.omitted() == 0 {
		last = strings.TrimSpace(string(c.head))
		last = last[strings.LastIndexByte(last, '\n')+1:]
	}
	if last == "" {
		return " (no output)"
	}
	return fmt.Sprintf(" (its last output line: %q)", termtext.RunePrefix(strings.ToValidUTF8(last, "?"), 200))
}
