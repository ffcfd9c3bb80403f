package prompt

import (
	"strings"
)

// The small-window form of the prompt (Options.Small), for windows of 4k
// to 8k tokens: the essential tools only, each in one line, a protocol
// section with one example, the tree's top levels and a shorter cut of
// the instructions, so that a read and an edit still fit beside it.
const (
	// SmallTreeBudget is the most lines of the small form's file tree.
	SmallTreeBudget = 30
	// SmallMaxInstructions bounds its instructions section, in bytes.
	SmallMaxInstructions = 2 << 10
)

// partCatalog describes some tools whole and the others in short: the
// small-window form describes the essential tools, each with the first
// sentence of its description, and names the others in one line; the
// full form describes every tool but the on-demand ones, which it lists
// one line each. It returns, for each tool left out, its full catalog
// entry, for the loop to answer a call of it with (see Prompt.Unshown).
func partCatalog(tools []Tool, small bool) (string, map[string]string, []ToolSize) {
	var shown, others []Tool
	for _, t := range tools {
		switch {
		case small && t.Essential:
			t.Description = firstSentence(t.Description)
			t.Params = append([]Param(nil), t.Params...) // the caller's stay whole
			for i, p := range t.Params {
				// Pointers into the full description mean nothing here.
				if strings.EqualFold(strings.TrimSpace(p.Description), "see above") {
					t.Params[i].Description = ""
				}
			}
			shown = append(shown, t)
		case !small && !t.OnDemand:
			shown = append(shown, t)
		default:
			others = append(others, t)
		}
	}
	text := renderCatalog(shown)
	var sizes []ToolSize
	for _, t := range shown {
		sizes = append(sizes, ToolSize{Name: t.Name, Bytes: len(DescribeTool(t)) + 1}) // and the blank line before it
	}
	if len(others) == 0 {
		return text, nil, sizes
	}
	unshown := make(map[string]string, len(others))
	names := make([]string, len(others))
	for i, t := range others {
		names[i] = t.Name
		unshown[t.Name] = DescribeTool(t)
	}
	if text == "" {
		text = "# Tools\n"
	}
	if small {
		text += "\nAlso available (a call with wrong parameters is answered with the tool's definition): " + strings.Join(names, ", ") + ".\n"
		for _, t := range others {
			sizes = append(sizes, ToolSize{Name: t.Name, Bytes: len(t.Name) + 2, Named: true})
		}
		return text, unshown, sizes
	}
	text += "\n## More tools\nA call with wrong parameters is answered with the tool's definition.\n"
	for _, t := range others {
		summary := strings.TrimSpace(t.Summary)
		if summary == "" {
			summary = firstSentence(t.Description)
		}
		line := "- " + t.Name + ": " + summary + "\n"
		text += line
		sizes = append(sizes, ToolSize{Name: t.Name, Bytes: len(line), Named: true})
	}
	return text, unshown, sizes
}

// ToolSize is what one tool takes in the catalog.
type ToolSize struct {
	Name  string
	Bytes int
	// Named is true for a tool the catalog only names (with its first
	// sentence in the full form).
	Named bool
}

// DescribeTool is t's entry in the full catalog: its heading, its whole
// description and its parameters.
func DescribeTool(t Tool) string {
	return strings.TrimPrefix(renderCatalog([]Tool{t}), "# Tools\n\n")
}

// firstSentence is the first sentence of a description: up to the first
// period that ends a sentence on its first line.
func firstSentence(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '.' && s[i+1] == ' ' && !strings.HasSuffix(s[:i], "e.g") && !strings.HasSuffix(s[:i], "i.e") {
			return s[:i+1]
		}
	}
	return s
}
