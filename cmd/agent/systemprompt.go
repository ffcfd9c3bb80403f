package main

import (
	"context"
	"path/filepath"
	"time"

	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/xmlcall"
	"github.com/agentcli/agent/prompt"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/fsedit"
)

// promptSettings are the knobs of the system prompt beyond the project
// and its tools.
type promptSettings struct {
	tree prompt.TreeOptions
	now  func() time.Time // time.Now when nil
	// userDir is the user's config folder, whose AGENTS.md applies to
	// every project; "" for none.
	userDir string
	// files reads the project's instruction files: the file tools'
	// sandbox, so they are read under read_file's rules.
	files prompt.FileReader
}

// systemPrompt builds the system prompt for the project of files (the
// file tools' sandbox, through which its instruction files are read),
// the tools of reg and the [tree] configuration (config.Defaults().Tree
// when nothing is configured). It is the one place the prompt is built:
// `agent run` sends p.String(), and `agent prompt` prints exactly that.
func (d *factory) systemPrompt(ctx context.Context, files *fsedit.Root, reg *tools.Registry, tree config.Tree) (prompt.Prompt, error) {
	opts, err := treeOptions(tree)
	if err != nil {
		return prompt.Prompt{}, err
	}
	return buildSystemPrompt(ctx, files.Dir(), reg, promptSettings{tree: opts, now: d.now, userDir: userConfigDir(d.environ()), files: files})
}

// treeOptions turns the [tree] configuration into the tree's options.
func treeOptions(t config.Tree) (prompt.TreeOptions, error) {
	style, err := prompt.ParseStyle(t.Style)
	if err != nil {
		return prompt.TreeOptions{}, err
	}
	return prompt.TreeOptions{Budget: t.Budget, Style: style}, nil
}

func buildSystemPrompt(ctx context.Context, root string, reg *tools.Registry, s promptSettings) (prompt.Prompt, error) {
	return prompt.Build(ctx, prompt.Options{
		Root:     root,
		Tools:    promptCatalog(reg),
		Examples: protocolExamples(reg),
		Now:      s.now,
		Tree:     s.tree,
		UserDir:  s.userDir,
		Files:    s.files,
	})
}

// promptCatalog describes the registered tools for the prompt, in registry
// order.
func promptCatalog(reg *tools.Registry) []prompt.Tool {
	var out []prompt.Tool
	for _, t := range reg.Tools() {
		def := t.Definition()
		pt := prompt.Tool{Name: def.Name, Description: def.Description}
		for _, p := range def.Params {
			pt.Params = append(pt.Params, prompt.Param{
				Name:        p.Name,
				Kind:        p.Kind.String(),
				Required:    p.Required,
				Enum:        p.Enum,
				Description: p.Description,
			})
		}
		out = append(out, pt)
	}
	return out
}

// The example calls of the protocol section. They use the built-in file
// tools; an example whose tool (or parameter) is not registered is left
// out rather than shown wrong. The error response is the one read_file
// really gives for a missing file (a test checks it).
var (
	exampleRead = xmlcall.Call{Name: "read_file", ID: "1", Params: []xmlcall.Param{
		{Name: "file_path", Value: "README.md"},
	}}
	exampleCreate = xmlcall.Call{Name: "write_file", ID: "2", Params: []xmlcall.Param{
		{Name: "operation_type", Value: "create"},
		{Name: "file_path", Value: "docs/notes.md"},
		{Name: "content", Value: "\n# Notes\nKeep <b>tags</b>, & and \"quotes\" as they are.\n"},
	}}
	examplePartial = xmlcall.Call{Name: "write_file", ID: "3", Params: []xmlcall.Param{
		{Name: "operation_type", Value: "partial"},
		{Name: "file_path", Value: "README.md"},
		{Name: "start_line", Value: "3"},
		{Name: "end_line", Value: "4"},
		{Name: "content", Value: "\nThe new third line.\nThe new fourth line.\n"},
	}}
	exampleError = xmlcall.Response{ID: "4", Name: "read_file",
		Params:  []xmlcall.Param{{Name: "file_path", Value: "docs/setup.md"}},
		Code:    tools.CodeFileNotFound,
		Message: "file not found: docs/setup.md; list_directory or search_files show what exists",
	}
)

// protocolExamples renders the examples with the protocol package's own
// renderer, so that they are exactly what the parser reads.
func protocolExamples(reg *tools.Registry) prompt.Examples {
	var ex prompt.Examples
	if exampleRegistered(reg, exampleRead) {
		ex.Read = xmlcall.RenderCall(exampleRead)
	}
	if exampleRegistered(reg, exampleCreate) {
		ex.Create = xmlcall.RenderCall(exampleCreate)
	}
	if exampleRegistered(reg, examplePartial) {
		ex.Partial = xmlcall.RenderCall(examplePartial)
	}
	if exampleRegistered(reg, xmlcall.Call{Name: exampleError.Name, Params: exampleError.Params}) {
		ex.Error = xmlcall.RenderString(exampleError)
	}
	return ex
}

// exampleRegistered reports whether c is a valid call of a registered tool.
func exampleRegistered(reg *tools.Registry, c xmlcall.Call) bool {
	_, _, res := reg.Validate(c.Name, c.Args())
	return res == nil
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
