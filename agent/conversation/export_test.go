package conversation

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/xmlcall"
)

// TestExportMarkdown: an export shows the prompts, the model's prose and
// each call with its parameters and its result cut to a few lines, in a
// fence no backticks of the result can close, with terminal control
// characters stripped and the plan note left out.
func TestExportMarkdown(t *testing.T) {
	s := agent.NewSession(t.TempDir())
	defer s.Close()
	var long strings.Builder
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&long, "line %d\n", i)
	}
	msgs := []llm.Message{
		{Role: llm.User, Text: "fix the \x1b[31mbuild\x1b[0m\n\n" + planOnNote},
		{Role: llm.Assistant, Text: "Reading it first.\n" + `<tool_call name="read_file" id="1"><file_path>main.go</file_path></tool_call>` +
			`<tool_call name="write_file" id="2"><operation_type>create</operation_type><file_path>x.md</file_path><content><![CDATA[a ` + "```" + ` b
second line]]></content></tool_call>`},
		{Role: llm.User, Text: xmlcall.RenderString(
			xmlcall.Response{ID: "1", Name: "read_file", Params: []xmlcall.Param{{Name: "file_path", Value: "main.go"}},
				Message: "main.go: lines 1-20 of 20", Content: long.String()},
			xmlcall.Response{ID: "2", Name: "write_file", Params: []xmlcall.Param{{Name: "operation_type", Value: "create"}, {Name: "file_path", Value: "x.md"}, {Name: "content", Value: "a ``` b\nsecond line"}},
				Code: "TOOL_POLICY_DENIED", Message: "write_file was not run: plan mode is on"},
		) + "\n[job 3 ended]\n"},
		{Role: llm.Assistant, Text: "The build fails at ```line 3```."},
	}
	for _, m := range msgs {
		if err := s.Append(m); err != nil {
			t.Fatal(err)
		}
	}
	var b strings.Builder
	if err := ExportMarkdown(&b, s, nil); err != nil {
		t.Fatal(err)
	}
	want := "# Conversation " + s.ID + `

## You

fix the build

## Agent

Reading it first.

- **read_file** file_path=main.go
  ✓ main.go: lines 1-20 of 20
  ` + "```" + `
  line 1
  line 2
  line 3
  line 4
  line 5
  line 6
  … 14 more lines
  ` + "```" + `

- **write_file** operation_type=create file_path=x.md content=a ` + "```" + ` b second line
  ✗ TOOL_POLICY_DENIED: write_file was not run: plan mode is on

> [job 3 ended]

The build fails at ` + "```line 3```" + `.
`
	if got := b.String(); got != want {
		t.Errorf("export:\n%s\nwant:\n%s", got, want)
	}
}

// TestExportFences: a result holding a fence is put in a longer one.
func TestExportFences(t *testing.T) {
	if got := fenced("a\n```\nb"); got != "````\na\n```\nb\n````" {
		t.Errorf("fenced = %q", got)
	}
}
