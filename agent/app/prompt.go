package app

import (
	"context"
	"slices"
	"time"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/conversation"
	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/xmlcall"
	"github.com/agentcli/agent/prompt"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/sandbox"
)

// FixedPromptTarget is the size the never-changing part of the prompt
// (role, protocol, the file tools' catalog) should stay under: every
// request repeats it.
const FixedPromptTarget = 6 << 10

// promptSettings are the knobs of the system prompt beyond the project
// and its tools.
type promptSettings struct {
	tree prompt.TreeOptions
	now  func() time.Time // time.Now when nil
	// userDir is the user's config folder, whose AGENTS.md applies to
	// every project; "" for none.
	userDir string
	// small builds the small-window form.
	small bool
	// files reads the project's instruction files: the file tools'
	// sandbox, so they are read under read_file's rules.
	files prompt.FileReader
}

// SystemPrompt builds the system prompt for the project of files (the
// file tools' sandbox, through which its instruction files are read),
// the tools of reg and the [tree] configuration (config.Defaults().Tree
// when nothing is configured). It is the one place the prompt is built:
// `agent run` sends p.String(), and `agent prompt` prints exactly that.
func (b *Builder) SystemPrompt(ctx context.Context, files *sandbox.Root, reg *tools.Registry, tree config.Tree) (prompt.Prompt, error) {
	return b.promptForm(ctx, files, conversation.NewToolSet(reg), tree, false)
}

// promptForm builds the system prompt in its full or small-window form;
// the small form describes the set's essential tools only (every tool
// when the set names none).
func (b *Builder) promptForm(ctx context.Context, files *sandbox.Root, set *conversation.ToolSet, tree config.Tree, small bool) (prompt.Prompt, error) {
	opts, err := treeOptions(tree)
	if err != nil {
		return prompt.Prompt{}, err
	}
	return buildSystemPrompt(ctx, files.Dir(), set, promptSettings{tree: opts, now: b.Now, userDir: b.UserDir, small: small, files: files})
}

// PromptChoice is the system prompt chosen for the model's window.
type PromptChoice struct {
	Prompt prompt.Prompt
	Fit    agent.SystemFit
	// Window is the window as the model's server told it; zero when it
	// was configured, built in, or not asked.
	Window llm.Window
	// Features are what the optional features add to the tools section
	// (NextPrompt with stats).
	Features []FeatureSize
}

// FormName names the form Fit chose: "full", "full, with a smaller file
// tree" or "small-window".
func (c PromptChoice) FormName() string { return formNames[c.Fit.Index] }

// fitSystemPrompt builds the system prompt for the model's window. A
// window not configured is asked of the model's server (llm.Windowed),
// and for Ollama sized to what the full prompt needs; then the budget
// takes the full prompt, the same with a smaller file tree, or the
// small-window form, the first that leaves room to work.
func (b *Builder) fitSystemPrompt(ctx context.Context, files *sandbox.Root, set *conversation.ToolSet, tree config.Tree, budget *agent.Budget, req llm.Request, model llm.Model) (PromptChoice, error) {
	var ch PromptChoice
	full, err := b.promptForm(ctx, files, set, tree, false)
	if err != nil {
		return ch, err
	}
	ch.Prompt = full // what a refusal shows
	if w, ok := model.(llm.Windowed); ok && budget.Window <= 0 {
		ch.Window = w.Window(ctx, budget.Need(full.String(), req))
		budget.Window, budget.Source, budget.Hint = ch.Window.Tokens, ch.Window.Source, ch.Window.Hint
	}
	forms := []prompt.Prompt{full}
	build := func(tree config.Tree, small bool) func() (string, error) {
		return func() (string, error) {
			p, err := b.promptForm(ctx, files, set, tree, small)
			forms = append(forms, p)
			return p.String(), err
		}
	}
	smallTree := tree
	smallTree.Budget = min(tree.Budget, 40)
	ch.Fit, err = budget.FitSystem(req,
		func() (string, error) { return full.String(), nil },
		build(smallTree, false),
		build(tree, true))
	if err != nil {
		return ch, err
	}
	ch.Prompt = forms[ch.Fit.Index]
	return ch, nil
}

// formNames name the candidates of fitSystemPrompt, in order.
var formNames = []string{"full", "full, with a smaller file tree", "small-window"}

// NextPrompt is the system prompt the next run in the project at dir
// would send, with the [tree] settings tree: the form chosen for the
// configured model's window, which is asked of its server (briefly) when
// the configuration does not say it. With no model to ask (no provider
// or key configured) the window is the configured one, or unknown. With
// stats, Features says what each optional feature adds to the tools.
func (b *Builder) NextPrompt(ctx context.Context, dir string, cfg config.Config, tree config.Tree, stats bool) (PromptChoice, error) {
	// The tools as a run builds them, so their catalog is the same.
	set, err := b.Catalog(ctx, dir, cfg)
	if err != nil {
		return PromptChoice{}, err
	}
	defer set.Close()
	files := b.fileRoot(dir, conversation.FileOptions(cfg))
	defer files.Close()
	win, src := cfg.Window()
	budget := &agent.Budget{Window: win, Source: src}
	reasoning, err := llm.ParseReasoning(cfg.EffectiveReasoning())
	if err != nil {
		return PromptChoice{}, err
	}
	var model llm.Model
	if cfg.Provider != "" && b.Model != nil {
		model, _ = b.Model(ctx, cfg) // without a key, no server is asked
	}
	ch, err := b.fitSystemPrompt(ctx, files, set, tree, budget, llm.Request{Reasoning: reasoning}, model)
	if stats && err == nil {
		ch.Features = b.featureSizes(ctx, files, set, tree, ch)
	}
	return ch, err
}

// treeOptions turns the [tree] configuration into the tree's options.
func treeOptions(t config.Tree) (prompt.TreeOptions, error) {
	style, err := prompt.ParseStyle(t.Style)
	if err != nil {
		return prompt.TreeOptions{}, err
	}
	return prompt.TreeOptions{Budget: t.Budget, Style: style}, nil
}

func buildSystemPrompt(ctx context.Context, root string, set *conversation.ToolSet, s promptSettings) (prompt.Prompt, error) {
	return prompt.Build(ctx, prompt.Options{
		Root:     root,
		Tools:    promptCatalog(set),
		Examples: protocolExamples(set.Reg),
		Now:      s.now,
		Tree:     s.tree,
		UserDir:  s.userDir,
		Small:    s.small,
		Files:    s.files,
		Skills:   skillCatalog(set.Reg),
	})
}

// promptCatalog describes the registered tools for the prompt, in registry
// order.
func promptCatalog(set *conversation.ToolSet) []prompt.Tool {
	var out []prompt.Tool
	for _, t := range set.Reg.Tools() {
		def := t.Definition()
		pt := prompt.Tool{Name: def.Name, Description: def.Description,
			Essential: len(set.Essential) == 0 || slices.Contains(set.Essential, def.Name),
			OnDemand:  def.OnDemand, Summary: def.Summary}
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
	exampleReplace = xmlcall.Call{Name: "write_file", ID: "1", Params: []xmlcall.Param{
		{Name: "operation_type", Value: "replace"},
		{Name: "file_path", Value: "README.md"},
		{Name: "old_text", Value: "Version 1.2"},
		{Name: "content", Value: "Version 1.3"},
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
	if exampleRegistered(reg, exampleReplace) {
		ex.Replace = xmlcall.RenderCall(exampleReplace)
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
