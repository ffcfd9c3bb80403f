package app

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"github.com/agentcli/agent/agent/hooks"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/conversation"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/fsedit"
	"github.com/agentcli/agent/tools/sandbox"
	"github.com/agentcli/agent/tools/subagents"
)

// TaskTool is the name of the tool that hands a job to a sub-agent.
const TaskTool = "task"

// The limits of a sub-agent: its share of the conversation's window
// (the rest stays the main conversation's to spend), the time of one
// task (a writing agent's questions wait for a person within it), and
// how many times in a row a SubagentStop hook may send it on.
const (
	taskShare        = 2 // the window divided by this
	taskTimeout      = 30 * time.Minute
	maxStopContinues = 3
)

// taskArgs are the task tool's parameters.
type taskArgs struct {
	Agent  string `json:"agent" jsonschema:"the agent, from the list above"`
	Prompt string `json:"prompt" jsonschema:"the job: what to find out or do, and what you know"`
}

// SubagentEnd is a sub-agent's run that ended: what Builder.SubagentStop
// (the SubagentStop hooks) is told.
type SubagentEnd struct {
	// Agent is the agent's name ("explore", "reviewer").
	Agent string
	// Answer is its final answer; "" when it ended without one.
	Answer string
	// Err is how it failed (the iteration limit, the window); nil when
	// it answered.
	Err error
	// SessionID is the conversation's session the task call is in.
	SessionID string
	// StopHookActive is true when the agent is going on because an
	// earlier call of the hook said so.
	StopHookActive bool
}

// taskTool is the task tool: it runs one of the agents (the built-in
// explorer, and those the project's and the user's agent files define)
// as a new conversation with the same model (or the agent's own), only
// the agent's tools, its own read state, budget and iteration limit, and
// answers with the agent's answer and the paths it read and changed. It
// is made with the tool set and linked to its conversation once that is
// built; unlinked (the catalog, agent serve) it answers that it cannot
// run.
type taskTool struct {
	tools.Tool // the typed tool: reads the arguments
	def        tools.Definition
	b          *Builder
	in         conversation.ToolInput
	set        *conversation.ToolSet // the parent's tools: what an agent may use, and what to refuse
	agents     *subagents.Set
	conv       *conversation.Conversation
	// stop is told when an agent ends (SubagentStop); nil tells nobody.
	stop func(ctx context.Context, end SubagentEnd) (goOn string)
}

// taskToolFor is the task tool over agents, for the tools of set.
func (b *Builder) taskToolFor(in conversation.ToolInput, set *conversation.ToolSet, agents *subagents.Set) *taskTool {
	t := &taskTool{b: b, in: in, set: set, agents: agents}
	if b.SubagentStop != nil {
		cfg := in.Cfg
		t.stop = func(ctx context.Context, end SubagentEnd) string { return b.SubagentStop(ctx, cfg, end) }
	} else {
		t.stop = t.stopHooks
	}
	t.Tool = tools.New(TaskTool, "", t.run, tools.Acts(tools.ActionThink), tools.NotServed(), tools.OnDemand(), tools.Timeout(taskTimeout))
	t.def = taskDefinition(t.Tool.Definition(), agents.Agents)
	return t
}

// stopHooks fires the conversation's SubagentStop hooks for an agent
// that ended: what a blocking hook says sends the agent on.
func (t *taskTool) stopHooks(ctx context.Context, end SubagentEnd) string {
	if t.conv == nil {
		return ""
	}
	o := t.conv.FireHook(ctx, hooks.Input{Event: hooks.SubagentStop, Agent: end.Agent, Answer: end.Answer, StopHookActive: end.StopHookActive})
	if !o.Block {
		return ""
	}
	return o.Reason
}

// Definition is the tool's definition with its agents: in the
// description, as the values of agent, and one line each where the
// catalog only names the tool.
func (t *taskTool) Definition() tools.Definition { return t.def }

// Concurrent reports whether the call's agent only reads, so that it
// may run beside the reply's other such calls (agent.MaxParallel).
func (t *taskTool) Concurrent(in tools.Input) bool {
	name, _ := in.Values["agent"].(string)
	a, ok := t.agents.Find(name)
	return ok && !t.writes(a)
}

// writes reports whether one of a's tools writes (and so asks a person).
func (t *taskTool) writes(a subagents.Agent) bool {
	for _, tl := range t.offered(a, nil).Tools() {
		if tl.Definition().Writes {
			return true
		}
	}
	return false
}

// run hands one job to an agent.
func (t *taskTool) run(ctx context.Context, a taskArgs) (tools.Result, error) {
	c := t.conv
	if c == nil {
		return tools.Errorf(tools.CodePolicyDenied, "task runs only inside a conversation with a model; do the job yourself"), nil
	}
	ag, ok := t.agents.Find(a.Agent)
	if !ok {
		return tools.Errorf(tools.CodeSchemaInvalid, "no agent is called %q; the agents are: %s", a.Agent, strings.Join(t.agents.Names(), ", ")), nil
	}
	if strings.TrimSpace(a.Prompt) == "" {
		return tools.Errorf(tools.CodeSchemaInvalid, "prompt is empty: say what the agent should find out or do"), nil
	}
	child, offered, err := t.newAgent(ctx, ag)
	if err != nil {
		if ctx.Err() != nil {
			return tools.Result{}, ctx.Err()
		}
		return tools.Errorf(tools.CodeProviderError, "%v; hand the job to another agent, or do it yourself", err), nil
	}
	out, err := t.runAgent(ctx, child, ag.Name, a.Prompt)
	report := reportOf(offered, out)
	return t.result(ctx, ag, out, err, report)
}

// runAgent runs prompt in child, and tells stop when it ends; a stop
// that says to go on sends child on with its words, at most
// maxStopContinues times in a row. The outcome counts every model call.
func (t *taskTool) runAgent(ctx context.Context, child *agent.Agent, name, prompt string) (*agent.Outcome, error) {
	var all *agent.Outcome
	for n := 0; ; n++ {
		out, err := child.RunNested(ctx, prompt)
		all = joinOutcomes(all, out)
		if t.stop == nil || ctx.Err() != nil {
			return all, err
		}
		end := SubagentEnd{Agent: name, Err: err, SessionID: tools.Info(ctx).SessionID, StopHookActive: n > 0}
		if out != nil && err == nil {
			end.Answer = out.Answer
		}
		goOn := strings.TrimSpace(t.stop(ctx, end))
		if goOn == "" || err != nil || n >= maxStopContinues {
			return all, err
		}
		prompt = goOn
	}
}

// joinOutcomes adds out (a continued run of the same agent) to all.
func joinOutcomes(all, out *agent.Outcome) *agent.Outcome {
	switch {
	case out == nil:
		return all
	case all == nil:
		return out
	}
	all.Answer = out.Answer
	all.Calls = append(all.Calls, out.Calls...)
	all.Usage = all.Usage.Add(out.Usage)
	all.Iterations += out.Iterations
	return all
}

// result is the task call's answer: the agent's answer and what it
// read and changed, or how it stopped.
func (t *taskTool) result(ctx context.Context, ag subagents.Agent, out *agent.Outcome, err error, report taskReport) (tools.Result, error) {
	var halt *agent.HaltError
	switch {
	case ctx.Err() != nil:
		return tools.Result{}, ctx.Err()
	case errors.Is(err, agent.ErrMaxIterations):
		return report.add(tools.Errorf(tools.CodeTimeout, "agent %s stopped after %d model calls without an answer; ask a narrower question, or do it yourself", ag.Name, out.Iterations)), nil
	case errors.Is(err, agent.ErrContextWindow):
		return report.add(tools.Errorf(tools.CodeProviderError, "agent %s ran out of its share of the context window: %v; ask a narrower question", ag.Name, err)), nil
	case errors.As(err, &halt):
		res := tools.Errorf(tools.CodePolicyDenied, "agent %s was stopped: %s", ag.Name, halt.Reason)
		res.Halt, res.Alerts = halt.Reason, []string{halt.Reason}
		return report.add(res), nil
	case err != nil:
		return tools.Result{}, fmt.Errorf("agent %s: %w", ag.Name, err)
	}
	msg := fmt.Sprintf("agent %s answered after %d model call%s; it looked at %d path%s", ag.Name,
		out.Iterations, plural(out.Iterations), len(report.looked), plural(len(report.looked)))
	if n := len(report.changed); n > 0 {
		msg += fmt.Sprintf(" and changed %d", n)
	}
	res := tools.Result{
		Message: msg,
		Metadata: []tools.Attr{
			{Name: "agent", Value: ag.Name},
			{Name: "model_calls", Value: fmt.Sprint(out.Iterations)},
			{Name: "tokens", Value: fmt.Sprint(out.Usage.InputTokens + out.Usage.OutputTokens)},
		},
		Content: out.Answer,
	}
	return report.add(res), nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// newAgent builds the agent ag's conversation: its tools (its own file
// tools, so its reads are its own; the conversation's others), its
// prompt, and what it shares with the conversation (the approval, the
// audit log, the model unless it names its own).
func (t *taskTool) newAgent(ctx context.Context, ag subagents.Agent) (*agent.Agent, *tools.Registry, error) {
	c := t.conv
	files := fsedit.NewSession(t.in.Files.Root())
	offered := t.offered(ag, files)
	child, window, err := c.SubAgent(ctx, ag.Name, ag.Model)
	if err != nil {
		return nil, nil, err
	}
	p, err := t.systemPrompt(ctx, ag, offered)
	if err != nil {
		return nil, nil, err
	}
	_, source := c.Window()
	child.Tools = withRefusals(offered, t.set.Reg, ag.Name)
	child.Session = agent.NewMemorySession()
	child.System = p.String()
	child.Unshown = p.Unshown
	child.MaxIterations = ag.MaxTurns
	child.Budget = &agent.Budget{Window: window / taskShare, Source: source, Reads: files}
	return child, offered, nil
}

// offered is the registry of ag's tools, in the conversation's order:
// the file tools of files (nil: the conversation's), the conversation's
// other tools; never task itself. A tool the conversation does not have
// (skill without skills, an MCP server that is off) is left out.
func (t *taskTool) offered(ag subagents.Agent, files *fsedit.Session) *tools.Registry {
	own := map[string]tools.Tool{}
	if files != nil {
		for _, tl := range files.Tools() {
			own[tl.Definition().Name] = tl
		}
	}
	reg := tools.NewRegistry()
	reg.Timeout = t.set.Reg.Timeout
	for _, tl := range t.set.Reg.Tools() {
		name := tl.Definition().Name
		if name == TaskTool || !slices.Contains(ag.Tools, name) {
			continue
		}
		if f, ok := own[name]; ok {
			tl = f
		}
		reg.Add(tl)
	}
	return reg
}

// FindAgents discovers the agents the task tool offers: the built-in
// explorer, the project's of files (their models and extra turns only
// when trusted) and the user's, whose configuration folder is userDir
// (its agents folder).
func FindAgents(files *sandbox.Root, userDir string, trusted bool) *subagents.Set {
	src := subagents.Sources{Builtin: []subagents.Agent{exploreAgent()}, Project: files, Trusted: trusted}
	if userDir != "" {
		src.UserDir = filepath.Join(userDir, "agents")
	}
	return subagents.Discover(src)
}

// taskAgents are the agents of a conversation's task tool; each file
// left out is one warning line.
func (b *Builder) taskAgents(in conversation.ToolInput) *subagents.Set {
	set := FindAgents(in.Files.Root(), b.UserDir, in.Cfg.ProjectTrusted)
	for _, p := range set.Problems {
		b.warn(p.String())
	}
	return set
}
