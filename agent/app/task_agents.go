package app

import (
	"context"
	_ "embed"
	"slices"
	"strings"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/conversation"
	"github.com/agentcli/agent/internal/termtext"
	"github.com/agentcli/agent/prompt"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/subagents"
)

// ExploreAgent is the built-in explorer's name: an agent of the task
// tool that reads, lists and searches.
const ExploreAgent = "explore"

var (
	//go:embed task.md
	taskDesc string
	//go:embed explore_role.md
	exploreRole string
	//go:embed task_role.md
	taskRole string
)

// exploreDescription is the explorer's line in the task tool.
// Every first request carries it: it is kept short.
const exploreDescription = "Reads, lists and searches the project for you; only its answer comes back."

// exploreAgent is the built-in explorer: the tools that read, and its
// own role.
func exploreAgent() subagents.Agent {
	return subagents.Agent{
		Name:         ExploreAgent,
		Description:  exploreDescription,
		Tools:        slices.Clone(subagents.ReadOnlyTools),
		MaxTurns:     subagents.DefaultMaxTurns,
		Instructions: exploreRole,
		Origin:       subagents.Builtin,
	}
}

// The bounds of the agents' lines in the catalog: each agent's line
// where the catalog only names the tool, all of them together (the
// agents past it are only named), and each one's description in the
// tool's whole definition.
const (
	maxAgentLine    = 120
	maxAgentLines   = 1 << 10
	maxAgentDetails = 300
)

// taskDefinition is def with the agents: the description lists each
// with its description, agent takes their names, and the summary (the
// catalog's line) names each in one short line.
func taskDefinition(def tools.Definition, agents []subagents.Agent) tools.Definition {
	names := make([]string, len(agents))
	var details strings.Builder
	details.WriteString(strings.TrimSpace(taskDesc))
	for i, a := range agents {
		names[i] = a.Name
		details.WriteString("\n- " + a.Name + ": " + termtext.Clip(termtext.OneLine(a.Description), maxAgentDetails))
	}
	def.Description = details.String()
	def.Params = slices.Clone(def.Params)
	for i, p := range def.Params {
		if p.Name == "agent" {
			def.Params[i].Kind, def.Params[i].Enum = tools.Enum, names
		}
	}
	def.Summary = taskSummary(agents)
	return def
}

// taskSummary is the task tool's line where the catalog only names it:
// what it does, how it is called, and one short line per agent, those
// past maxAgentLines only named.
func taskSummary(agents []subagents.Agent) string {
	var b strings.Builder
	b.WriteString("Hand a job (prompt) to a sub-agent (agent); it answers with its findings and the paths it read or changed:")
	size := 0
	var more []string
	for _, a := range agents {
		line := "\n  - " + a.Name + ": " + termtext.Clip(firstSentenceOf(a.Description), maxAgentLine)
		if size+len(line) > maxAgentLines {
			more = append(more, a.Name)
			continue
		}
		size += len(line)
		b.WriteString(line)
	}
	if len(more) > 0 {
		b.WriteString("\n  - more agents (ask with a wrong agent to see them): " + strings.Join(more, ", "))
	}
	return b.String()
}

// firstSentenceOf is the first sentence of a description, on one line.
func firstSentenceOf(s string) string {
	return conversation.FirstSentence(termtext.OneLine(s))
}

// systemPrompt is the agent's prompt: the conversation's own form
// (protocol, the project's instructions, environment, file tree) with
// only the tools of reg, and the agent's role: the explorer's own, or
// the frame every agent gets around its file's instructions.
func (t *taskTool) systemPrompt(ctx context.Context, ag subagents.Agent, reg *tools.Registry) (prompt.Prompt, error) {
	opts, err := treeOptions(t.in.Cfg.Tree)
	if err != nil {
		return prompt.Prompt{}, err
	}
	root := t.in.Files.Root()
	p, err := buildSystemPrompt(ctx, root.Dir(), conversation.NewToolSet(reg), promptSettings{tree: opts, now: t.b.Now, userDir: t.b.UserDir, files: root})
	if err != nil {
		return prompt.Prompt{}, err
	}
	role := ag.Instructions
	if ag.Origin != subagents.Builtin {
		role = strings.ReplaceAll(strings.TrimSpace(taskRole), "{name}", ag.Name)
		if ag.Instructions != "" {
			role += "\n\nYour instructions:\n\n" + ag.Instructions
		}
	}
	for i := range p.Sections {
		if p.Sections[i].Name == prompt.SectionRole {
			p.Sections[i].Text = role
		}
	}
	return p, nil
}

// taskReport is what an agent's calls did: the project paths it looked
// at (read, listed, searched) and those it changed.
type taskReport struct {
	looked, changed []string
}

// reportOf lists, each once and in order, the paths the agent's
// successful calls of reg's tools named, and those they changed.
func reportOf(reg *tools.Registry, out *agent.Outcome) taskReport {
	var r taskReport
	if out == nil {
		return r
	}
	add := func(list *[]string, p string) {
		if !slices.Contains(*list, p) {
			*list = append(*list, p)
		}
	}
	for _, cr := range out.Calls {
		t, ok := reg.Lookup(cr.Tool)
		if !ok || cr.Result.IsError() {
			continue
		}
		for _, p := range cr.Result.Changed {
			add(&r.changed, p)
		}
		if t.Definition().Writes {
			continue
		}
		for _, name := range t.Definition().PathParams() {
			v := "."
			for _, p := range cr.Params {
				if p.Name == name && strings.TrimSpace(p.Value) != "" {
					v = strings.TrimSpace(p.Value)
				}
			}
			add(&r.looked, v)
		}
	}
	return r
}

// add puts the paths into res: listed after its content for the model,
// and the changed ones as the call's changes (the conversation's own,
// for its watcher and the run's summary).
func (r taskReport) add(res tools.Result) tools.Result {
	var lists []string
	if len(r.looked) > 0 {
		lists = append(lists, "Looked at: "+strings.Join(r.looked, ", "))
	}
	if len(r.changed) > 0 {
		lists = append(lists, "Changed: "+strings.Join(r.changed, ", "))
		res.Changed = r.changed
	}
	if len(lists) == 0 {
		return res
	}
	if res.Content != "" {
		res.Content = strings.TrimRight(res.Content, "\n") + "\n\n"
	}
	res.Content += strings.Join(lists, "\n")
	return res
}

// withRefusals is an agent's registry: the tools of offered, and every
// other tool of the conversation's (parent) answering that the agent may
// not use it, so that a write or a command it tries is refused plainly
// rather than reported as unknown. The refusals are not in its prompt.
func withRefusals(offered, parent *tools.Registry, agentName string) *tools.Registry {
	reg := tools.NewRegistry(offered.Tools()...)
	reg.Timeout = offered.Timeout
	allowed := strings.Join(offered.Names(), ", ")
	if allowed == "" {
		allowed = "no tool"
	}
	for _, t := range parent.Tools() {
		def := t.Definition()
		if _, ok := reg.Lookup(def.Name); ok {
			continue
		}
		def.Writes = false // refused here, nobody is asked
		reg.Add(offLimits{def: def, agent: agentName, allowed: allowed})
	}
	return reg
}

// offLimits is a tool of the main conversation inside an agent that may
// not use it: never run.
type offLimits struct {
	def            tools.Definition
	agent, allowed string
}

func (r offLimits) Definition() tools.Definition { return r.def }

func (r offLimits) Execute(context.Context, tools.Input) (tools.Result, error) {
	return tools.Errorf(tools.CodePolicyDenied, "%s was not run: agent %s may use only %s; say in your answer what should be changed or run instead", r.def.Name, r.agent, r.allowed), nil
}
