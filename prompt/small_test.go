package prompt

import (
	"path/filepath"
	"strings"
	"testing"
)

// smallTools is testTools with read_file essential and write_file not.
func smallTools() []Tool {
	ts := append([]Tool(nil), testTools...)
	ts[0].Essential = true
	ts = append(ts, Tool{Name: "grep_notes", Essential: true, Description: "Search notes (e.g. todo lists). Then more.", Params: []Param{
		{Name: "mode", Kind: "enum", Enum: []string{"a", "b"}, Required: true, Description: "see above"},
	}})
	return ts
}

// TestSmallPromptGolden renders the small-window form: the protocol with
// its one example, the essential tools in one line each, the others
// named, the tree plain and cut short.
func TestSmallPromptGolden(t *testing.T) {
	dir := promptFixture(t)
	ex := testExamples
	ex.Replace = "<tool_call name=\"write_file\" id=\"1\">\n<operation_type>replace</operation_type>\n</tool_call>"
	p := buildTestPrompt(t, dir, Options{Tools: smallTools(), Examples: ex, Small: true})
	got := strings.ReplaceAll(p.String(), dir, "$ROOT")
	checkGolden(t, filepath.Join("prompt", "small.golden"), got)
	if !p.Small || p.Tree.Lines > SmallTreeBudget {
		t.Errorf("Small %v, tree of %d lines", p.Small, p.Tree.Lines)
	}
}

// TestSmallCatalog: each essential tool keeps the first sentence of its
// description and its parameters; the others are named in one line and
// kept whole for the loop; the caller's catalog is left as it was.
func TestSmallCatalog(t *testing.T) {
	tools := smallTools()
	text, unshown, _ := partCatalog(tools, true)
	for _, want := range []string{
		"## read_file\nRead a text file.\n- file_path (required): path relative to the project root\n",
		"## grep_notes\nSearch notes (e.g. todo lists).\n- mode (required, a|b)\n",
		"Also available (a call with wrong parameters is answered with the tool's definition): write_file.\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("catalog lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "Errors:") || strings.Contains(text, "## write_file") {
		t.Errorf("catalog has more than the short form:\n%s", text)
	}
	if len(unshown) != 1 || unshown["write_file"] != DescribeTool(tools[1]) || !strings.HasPrefix(unshown["write_file"], "## write_file\nWrite a text file.\n- operation_type (required, create|rewrite|partial): what to do\n") {
		t.Errorf("unshown = %q", unshown)
	}
	if tools[2].Params[0].Description != "see above" || tools[0].Description != testTools[0].Description {
		t.Error("the caller's catalog was changed")
	}
}
