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

// smallCatalog lists the essential tools, each with the first sentence
// of its description and its parameters, and names the others in one
// line. It returns, for each tool left out, its full catalog entry, for
// the loop to answer a call of it with (see Prompt.Unshown).
func smallCatalog(tools []Tool) (string, map[string]string) {
	var shown, others []Tool
	for _, t := range tools {
		if t.Essential {
			t.Description = firstSentence(t.Description)
			t.Params = append([]Param(nil), t.Params...) // the caller's stay whole
			for i, p := range t.Params {
				// Pointers into the full description mean nothing here.
				if strings.EqualFold(strings.TrimSpace(p.Description), "see above") {
					t.Params[i].Description = ""
				}
			}
			shown = append(shown, t)
		} else {
			others = append(others, t)
		}
	}
	text := renderCatalog(shown)
	if len(others) == 0 {
		return text, nil
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
	text += "\nAlso available, described when first called (the call is answered with the tool's definition, not run): " + strings.Join(names, ", ") + ".\n"
	return text, unshown
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
