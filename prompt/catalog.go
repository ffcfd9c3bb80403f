package prompt

import (
	"strings"

	"github.com/agentcli/agent/internal/termtext"
)

// Tool describes one tool for the catalog. The caller fills it from its
// tool registry, so the catalog always lists exactly the tools that run.
type Tool struct {
	Name        string
	Description string // may hold several lines
	Params      []Param
	// Essential tools (the file tools, run_command) are the ones the
	// small-window form describes; the others it only names.
	Essential bool
	// OnDemand tools the full form names with one line each; the others
	// it describes whole (see Prompt.Unshown).
	OnDemand bool
	// Summary is the full form's line for an OnDemand tool, after its
	// name; "" is the description's first sentence.
	Summary string
}

// Param describes one parameter of a Tool.
type Param struct {
	Name string
	// Kind is "string", "integer", "boolean", "enum" or "json".
	Kind        string
	Required    bool
	Enum        []string // the allowed values of an enum
	Description string
}

// Examples are the protocol examples shown to the model. The caller
// renders them with the protocol package (a call as a model should write
// it, a response as the agent sends it), so they cannot drift from what
// the parser accepts. An empty example is left out.
type Examples struct {
	Read    string // a read_file call
	Create  string // a write_file call creating a file, content in CDATA
	Partial string // a write_file call replacing a range of lines
	Error   string // a <tool_response> carrying an error
	// Replace is a write_file call replacing exact text: the one example
	// of the small-window form.
	Replace string
}

// renderCatalog lists the tools, one heading each, with their parameters
// in definition order. Text parameters are the default and carry no kind,
// which keeps the catalog short; every other kind is named.
func renderCatalog(tools []Tool) string {
	if len(tools) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("# Tools\n")
	for _, t := range tools {
		b.WriteString("\n## " + t.Name + "\n")
		if d := strings.TrimSpace(t.Description); d != "" {
			b.WriteString(d + "\n")
		}
		for _, p := range t.Params {
			b.WriteString("- " + p.Name)
			var tags []string
			if p.Required {
				tags = append(tags, "required")
			}
			switch {
			case p.Kind == "enum" || len(p.Enum) > 0:
				tags = append(tags, strings.Join(p.Enum, "|"))
			case p.Kind != "" && p.Kind != "string":
				tags = append(tags, p.Kind)
			}
			if len(tags) > 0 {
				b.WriteString(" (" + strings.Join(tags, ", ") + ")")
			}
			if d := termtext.OneLine(p.Description); d != "" {
				b.WriteString(": " + d)
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}
