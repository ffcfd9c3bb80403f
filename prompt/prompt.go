package prompt

import (
	"cmp"
	"context"
	"embed"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"text/template"
	"time"
	"unicode/utf8"
)

//go:embed templates/*.md
var templates embed.FS

var (
	roleText           = mustRead("templates/role.md")
	protocolTempl      = template.Must(template.New("protocol").Parse(mustRead("templates/protocol.md")))
	smallProtocolTempl = template.Must(template.New("protocol").Parse(mustRead("templates/protocol_small.md")))
)

func mustRead(name string) string {
	b, err := templates.ReadFile(name)
	if err != nil {
		panic(err) // embedded at build time: cannot happen
	}
	return string(b)
}

// The names of the sections, in the order they appear. The order puts
// what never changes first (role, protocol, tool catalog), then what
// changes rarely (skills, instructions), then the date and the file
// tree, so that a provider's prompt cache keeps the longest possible
// prefix.
const (
	SectionRole         = "role"
	SectionProtocol     = "protocol"
	SectionTools        = "tools"
	SectionSkills       = "skills"
	SectionInstructions = "instructions"
	SectionEnvironment  = "environment"
	SectionTree         = "tree"
)

// Options are the inputs of Build.
type Options struct {
	// Root is the project folder.
	Root     string
	Tools    []Tool
	Examples Examples
	// Now is the clock; time.Now when nil. Only the date is shown, so
	// the prompt stays the same all day.
	Now func() time.Time
	// Platform is shown as the operating system; runtime.GOOS/GOARCH
	// when empty.
	Platform string
	Tree     TreeOptions
	// MaxInstructions bounds the AGENTS.md section, in bytes;
	// DefaultMaxInstructions when zero.
	MaxInstructions int
	// UserDir is the user's config folder ($XDG_CONFIG_HOME/agent): an
	// AGENTS.md there is the user's own instructions, for every project.
	UserDir string
	// Small builds the small-window form (see small.go).
	Small bool
	// Skills are the skills the model may load with the skill tool, in
	// the order listed; the section is left out when there are none.
	Skills []Skill
	// Files reads the project's instructions file under the file tools'
	// rules (cmd/agent passes its sandbox.Root). nil reads inside Root
	// through os.Root, without the file tools' secret-file rules.
	Files FileReader
}

// Section is one part of the system prompt.
type Section struct {
	Name string
	// Text is the section, ending in a line break; empty when the section
	// has nothing to say (no instructions file, no tools).
	Text string
}

// Prompt is a system prompt made of sections in a fixed order.
type Prompt struct {
	Sections []Section
	// Tree is the file tree the tree section shows.
	Tree Tree
	// InstructionsFile is the name of the instructions file used, or "".
	InstructionsFile string
	// UserInstructionsFile is the path of the user's own instructions
	// file, or "".
	UserInstructionsFile string
	// Small says this is the small-window form.
	Small bool
	// Unshown holds, for each tool the prompt only names (every tool but
	// the essential ones in the small-window form, the on-demand ones in
	// the full form), its full catalog entry: the loop answers the first
	// call of such a tool with it.
	Unshown map[string]string
	// ToolSizes is the catalog by tool, in its order.
	ToolSizes []ToolSize
}

// String returns the system prompt: the non-empty sections separated by
// a blank line.
func (p Prompt) String() string {
	var b strings.Builder
	for _, s := range p.Sections {
		if s.Text == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		b.WriteString(s.Text)
	}
	return b.String()
}

// Section returns the text of the section called name.
func (p Prompt) Section(name string) string {
	for _, s := range p.Sections {
		if s.Name == name {
			return s.Text
		}
	}
	return ""
}

// Build assembles the system prompt for the project at opts.Root.
func Build(ctx context.Context, opts Options) (Prompt, error) {
	root, err := filepath.Abs(opts.Root)
	if err != nil {
		return Prompt{}, err
	}
	ex := opts.Examples
	for _, e := range []*string{&ex.Read, &ex.Create, &ex.Partial, &ex.Error, &ex.Replace} {
		*e = strings.TrimSpace(*e)
	}
	tmpl, maxInstr := protocolTempl, DefaultMaxInstructions
	if opts.Small {
		tmpl, maxInstr = smallProtocolTempl, SmallMaxInstructions
		opts.Tree.Budget = min(cmp.Or(opts.Tree.Budget, DefaultBudget), SmallTreeBudget)
		opts.Tree.Style = Plain // an emoji costs two tokens a line
	}
	var protocol strings.Builder
	if err := tmpl.Execute(&protocol, ex); err != nil {
		return Prompt{}, fmt.Errorf("render protocol section: %w", err)
	}
	if opts.MaxInstructions > 0 {
		maxInstr = opts.MaxInstructions
	}
	instrName, instr, err := instructions(root, opts.Files, maxInstr)
	if err != nil {
		return Prompt{}, err
	}
	tree, err := BuildTree(ctx, root, opts.Tree)
	if err != nil {
		return Prompt{}, err
	}
	p := Prompt{Tree: tree, InstructionsFile: instrName, Small: opts.Small}
	catalog, unshown, sizes := partCatalog(opts.Tools, opts.Small)
	p.Unshown, p.ToolSizes = unshown, sizes
	var ins strings.Builder
	if userName, user := userInstructions(opts.UserDir, maxInstr); user != "" {
		p.UserInstructionsFile = filepath.Join(opts.UserDir, userName)
		fmt.Fprintf(&ins, "# Your user's instructions\n\nFrom %s in the user's configuration folder, for every project:\n\n%s\n", userName, user)
	}
	if instr != "" {
		if ins.Len() > 0 {
			ins.WriteString("\n")
		}
		fmt.Fprintf(&ins, "# Project instructions\n\nFrom %s in the project folder:\n\n%s\n", instrName, instr)
	}
	p.Sections = []Section{
		{SectionRole, roleText},
		{SectionProtocol, protocol.String()},
		{SectionTools, catalog},
		{SectionSkills, skillsSection(opts.Skills, opts.Small)},
		{SectionInstructions, ins.String()},
		{SectionEnvironment, environment(opts, root)},
		{SectionTree, treeSection(tree)},
	}
	return p, nil
}

func environment(opts Options, root string) string {
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	platform := opts.Platform
	if platform == "" {
		platform = runtime.GOOS + "/" + runtime.GOARCH
	}
	return fmt.Sprintf("# Environment\n\n- Date: %s\n- System: %s\n- Project folder: %s\n",
		now().Format("2006-01-02 (Monday)"), platform, root)
}

func treeSection(t Tree) string {
	var b strings.Builder
	b.WriteString("# Project files\n\n")
	if t.Lines == 0 {
		b.WriteString("The project folder is empty.\n")
		return b.String()
	}
	noun := "files"
	if t.Files == 1 {
		noun = "file"
	}
	fmt.Fprintf(&b, "%s %s, ignored ones left out.", thousands(t.Files), noun)
	if t.Collapsed > 0 {
		b.WriteString(" A folder followed by a count is not opened here; list it to see inside.")
	}
	b.WriteString("\n\n")
	b.WriteString(t.Text)
	return b.String()
}

// EstimateTokens estimates how many tokens s costs: about four bytes of
// ASCII text per token, and a token for each other character (accented
// letters, CJK, emoji), which is close for the common tokenizers.
func EstimateTokens(s string) int {
	ascii, other := 0, 0
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			ascii++
			i++
			continue
		}
		_, n := utf8.DecodeRuneInString(s[i:])
		other++
		i += n
	}
	return (ascii+3)/4 + other
}
