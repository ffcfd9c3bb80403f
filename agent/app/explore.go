package app

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/conversation"
	"github.com/agentcli/agent/prompt"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/fsedit"
	"github.com/agentcli/agent/tools/skills"
)

// ExploreTool is the explorer's name.
const ExploreTool = "explore"

// The explorer's limits: the model calls of one exploration, its share
// of the conversation's window (the rest stays the main conversation's
// to spend), and its time.
const (
	exploreIterations = 12
	exploreShare      = 2 // the window divided by this
	exploreTimeout    = 15 * time.Minute
)

var (
	//go:embed explore.md
	exploreDesc string
	//go:embed explore_role.md
	exploreRole string
)

// exploreArgs are the explorer's parameters.
type exploreArgs struct {
	Task string `json:"task" jsonschema:"what to find out, and what you know"`
}

// explorer is the explore tool: a new conversation with the same model
// and only the tools that read (read_file, list_directory,
// search_files, skill), its own read state, budget and iteration limit,
// whose answer and list of files looked at is the call's result. It is
// made with the tool set and linked to its conversation once that is
// built; unlinked (the catalog, agent serve) it answers that it cannot
// run.
type explorer struct {
	b    *Builder
	in   conversation.ToolInput
	set  *conversation.ToolSet // the parent's tools: the skill tool, and what to refuse
	conv *conversation.Conversation
}

func (b *Builder) exploreTool(in conversation.ToolInput, set *conversation.ToolSet) (*explorer, tools.Tool) {
	e := &explorer{b: b, in: in, set: set}
	return e, tools.New(ExploreTool, exploreDesc, e.run, tools.Acts(tools.ActionSearch), tools.NotServed(), tools.Timeout(exploreTimeout))
}

// run explores one task.
func (e *explorer) run(ctx context.Context, a exploreArgs) (tools.Result, error) {
	c := e.conv
	if c == nil {
		return tools.Errorf(tools.CodePolicyDenied, "explore runs only inside a conversation with a model; read, list and search yourself"), nil
	}
	if strings.TrimSpace(a.Task) == "" {
		return tools.Errorf(tools.CodeSchemaInvalid, "task is empty: say what to find out"), nil
	}
	root := e.in.Files.Root()
	files := fsedit.NewSession(root) // its reads are not the main conversation's
	offered := tools.NewRegistry(files.ReadTool(), files.ListTool(), files.SearchTool())
	if t, ok := e.set.Reg.Lookup(skills.ToolName); ok {
		offered.Add(t)
	}
	system, err := e.systemPrompt(ctx, offered)
	if err != nil {
		return tools.Result{}, err
	}
	window, source := c.Window()
	budget := &agent.Budget{Window: window / exploreShare, Source: source, Reads: files}
	child := &agent.Agent{
		Model:         c.Model(),
		Tools:         withRefusals(offered, e.set.Reg),
		Session:       agent.NewMemorySession(),
		System:        system,
		MaxIterations: exploreIterations,
		Approval:      agent.NewApproval(agent.PolicyNever), // nothing it has writes; and nothing may
		Reasoning:     c.Reasoning(),
		Budget:        budget,
	}
	out, err := child.RunNested(ctx, a.Task)
	looked := lookedAt(offered, out)
	switch {
	case ctx.Err() != nil:
		return tools.Result{}, ctx.Err()
	case errors.Is(err, agent.ErrMaxIterations):
		return exploreResult(tools.Errorf(tools.CodeTimeout, "explore stopped after %d model calls without an answer; ask a narrower question, or look yourself", out.Iterations), looked), nil
	case errors.Is(err, agent.ErrContextWindow):
		return exploreResult(tools.Errorf(tools.CodeProviderError, "explore ran out of its share of the context window: %v; ask a narrower question", err), looked), nil
	case err != nil:
		return tools.Result{}, fmt.Errorf("explore: %w", err)
	}
	res := tools.Result{
		Message: fmt.Sprintf("explored in %d model call%s, %d path%s looked at", out.Iterations, plural(out.Iterations), len(looked), plural(len(looked))),
		Metadata: []tools.Attr{
			{Name: "model_calls", Value: fmt.Sprint(out.Iterations)},
			{Name: "tokens", Value: fmt.Sprint(out.Usage.InputTokens + out.Usage.OutputTokens)},
		},
		Content: out.Answer,
	}
	return exploreResult(res, looked), nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// exploreResult adds the paths looked at to res's content.
func exploreResult(res tools.Result, looked []string) tools.Result {
	if len(looked) == 0 {
		return res
	}
	list := "Looked at: " + strings.Join(looked, ", ")
	if res.Content == "" {
		res.Content = list
	} else {
		res.Content = strings.TrimRight(res.Content, "\n") + "\n\n" + list
	}
	return res
}

// systemPrompt is the explorer's prompt: the conversation's own form
// (protocol, the project's instructions, environment, file tree) with
// the explorer's role and only the tools of reg.
func (e *explorer) systemPrompt(ctx context.Context, reg *tools.Registry) (string, error) {
	opts, err := treeOptions(e.in.Cfg.Tree)
	if err != nil {
		return "", err
	}
	root := e.in.Files.Root()
	p, err := buildSystemPrompt(ctx, root.Dir(), conversation.NewToolSet(reg), promptSettings{tree: opts, now: e.b.Now, userDir: e.b.UserDir, files: root})
	if err != nil {
		return "", err
	}
	for i := range p.Sections {
		if p.Sections[i].Name == prompt.SectionRole {
			p.Sections[i].Text = exploreRole
		}
	}
	return p.String(), nil
}

// lookedAt lists the project paths the explorer's successful calls
// named (files read, folders listed or searched), each once, in order.
func lookedAt(reg *tools.Registry, out *agent.Outcome) []string {
	var paths []string
	if out == nil {
		return nil
	}
	for _, cr := range out.Calls {
		t, ok := reg.Lookup(cr.Tool)
		if !ok || cr.Result.IsError() {
			continue
		}
		for _, name := range t.Definition().PathParams() {
			v := "."
			for _, p := range cr.Params {
				if p.Name == name && strings.TrimSpace(p.Value) != "" {
					v = strings.TrimSpace(p.Value)
				}
			}
			if !slices.Contains(paths, v) {
				paths = append(paths, v)
			}
		}
	}
	return paths
}

// withRefusals is the explorer's registry: the tools of offered, and
// every other tool of the conversation's (parent) answering that the
// explorer may not use it, so that a write or a command it tries is
// refused plainly rather than reported as unknown. The refusals are not
// in its prompt.
func withRefusals(offered, parent *tools.Registry) *tools.Registry {
	reg := tools.NewRegistry(offered.Tools()...)
	for _, t := range parent.Tools() {
		def := t.Definition()
		if _, ok := reg.Lookup(def.Name); ok {
			continue
		}
		def.Writes = false // refused here, nobody is asked
		reg.Add(offLimits{def})
	}
	return reg
}

// offLimits is a tool of the main conversation inside the explorer: never
// run.
type offLimits struct{ def tools.Definition }

func (r offLimits) Definition() tools.Definition { return r.def }

func (r offLimits) Execute(context.Context, tools.Input) (tools.Result, error) {
	return tools.Errorf(tools.CodePolicyDenied, "%s was not run: the explorer only reads, lists and searches; say in your answer what should be changed or run instead", r.def.Name), nil
}
