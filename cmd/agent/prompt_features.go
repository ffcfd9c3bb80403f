package main

import (
	"context"

	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/prompt"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/fsedit"
)

// featureSize is how many bytes of the tools section one optional
// feature takes, for `agent prompt --stats`.
type featureSize struct {
	name  string
	bytes int
}

// promptFeatures are the optional features whose cost --stats shows:
// each returns the tool set without it, nil when the set lacks it.
var promptFeatures = []struct {
	name    string
	without func(*toolSet) *toolSet
}{
	{"background jobs", withoutJobs},
}

// featureSizes measures each feature of set in the form ch chose, by
// building the prompt again without it and comparing the tools sections.
func (d *factory) featureSizes(ctx context.Context, files *fsedit.Root, set *toolSet, tree config.Tree, ch promptChoice) []featureSize {
	small := formNames[ch.fit.Index] == "small-window"
	var out []featureSize
	for _, f := range promptFeatures {
		less := f.without(set)
		if less == nil {
			continue
		}
		p, err := d.promptForm(ctx, files, less, tree, small)
		if err != nil {
			continue
		}
		out = append(out, featureSize{f.name, len(ch.prompt.Section(prompt.SectionTools)) - len(p.Section(prompt.SectionTools))})
	}
	return out
}

// withDefinition is a tool shown with another definition (a parameter
// left out), for measuring only: it is never run.
type withDefinition struct {
	tools.Tool
	def tools.Definition
}

func (w withDefinition) Definition() tools.Definition { return w.def }
