package app

import (
	"context"
	"slices"

	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/conversation"
	"github.com/agentcli/agent/prompt"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/gitcommit"
	"github.com/agentcli/agent/tools/jobs"
	"github.com/agentcli/agent/tools/sandbox"
)

// FeatureSize is how many bytes of the tools section one optional
// feature takes, for `agent prompt --stats`.
type FeatureSize struct {
	Name  string
	Bytes int
}

// promptFeatures are the optional features whose cost --stats shows:
// each returns the tool set without it, nil when the set lacks it.
var promptFeatures = []struct {
	name    string
	without func(*conversation.ToolSet) *conversation.ToolSet
}{
	{"background jobs", withoutJobs},
	{"sub-agents", withoutTool(TaskTool)},
	{"git commits", withoutTool(gitcommit.Name)},
}

// featureSizes measures each feature of set in the form ch chose, by
// building the prompt again without it and comparing the tools sections.
func (b *Builder) featureSizes(ctx context.Context, files *sandbox.Root, set *conversation.ToolSet, tree config.Tree, ch PromptChoice) []FeatureSize {
	small := ch.FormName() == "small-window"
	var out []FeatureSize
	for _, f := range promptFeatures {
		less := f.without(set)
		if less == nil {
			continue
		}
		p, err := b.promptForm(ctx, files, less, tree, small)
		if err != nil {
			continue
		}
		out = append(out, FeatureSize{f.name, len(ch.Prompt.Section(prompt.SectionTools)) - len(p.Section(prompt.SectionTools))})
	}
	return out
}

// withoutJobs is set without background jobs (no job tools, run_command
// without its background flag), to measure what they add to the prompt;
// nil when set has none.
func withoutJobs(set *conversation.ToolSet) *conversation.ToolSet {
	if set.Jobs == nil {
		return nil
	}
	jobTools := map[string]bool{}
	for _, t := range jobs.Tools(set.Jobs) {
		jobTools[t.Definition().Name] = true
	}
	reg := tools.NewRegistry()
	for _, t := range set.Reg.Tools() {
		def := t.Definition()
		if jobTools[def.Name] {
			continue
		}
		if _, ok := def.Param("background"); ok && def.RunsPrograms() {
			def.Params = slices.DeleteFunc(slices.Clone(def.Params), func(p tools.Param) bool { return p.Name == "background" })
			t = withDefinition{t, def}
		}
		reg.Add(t)
	}
	return &conversation.ToolSet{Reg: reg, Essential: set.Essential}
}

// withDefinition is a tool shown with another definition (a parameter
// left out), for measuring only: it is never run.
type withDefinition struct {
	tools.Tool
	def tools.Definition
}

func (w withDefinition) Definition() tools.Definition { return w.def }

// withoutTool returns the function that makes set without the tool
// called name (nil when set lacks it), to measure what it adds.
func withoutTool(name string) func(*conversation.ToolSet) *conversation.ToolSet {
	return func(set *conversation.ToolSet) *conversation.ToolSet {
		if _, ok := set.Reg.Lookup(name); !ok {
			return nil
		}
		reg := tools.NewRegistry()
		for _, t := range set.Reg.Tools() {
			if t.Definition().Name != name {
				reg.Add(t)
			}
		}
		return &conversation.ToolSet{Reg: reg, Essential: set.Essential}
	}
}
