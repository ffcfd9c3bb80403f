package chat

import (
	"strings"
	"testing"
)

// TestInitAndExportInTheChat: /init sends its instruction as the next
// turn, the draft of AGENTS.md is asked about in the dialog with its
// diff, "y" writes it; /export then names the Markdown file it wrote.
func TestInitAndExportInTheChat(t *testing.T) {
	b := newTestConv(t,
		reply(`<tool_call name="read_file"><file_path>Makefile</file_path></tool_call>`),
		reply(`<tool_call name="write_file"><operation_type>create</operation_type><file_path>AGENTS.md</file_path><content>
- Test: `+"`make test`"+`
</content></tool_call>`),
		reply("Wrote AGENTS.md."),
	)
	b.write(t, "Makefile", "test:\n\tgo test ./...\n")
	h := newHarness(t, b, Options{})

	h.say("/init")
	h.until("the question about AGENTS.md", func() bool { return h.m.ask != nil })
	if v := h.view(); !strings.Contains(v, "Allow write_file?") || !strings.Contains(v, "+- Test: `make test`") {
		t.Fatalf("the dialog does not show the draft's diff:\n%s", v)
	}
	h.typeText("y")
	h.until("the answer", func() bool { return h.idle() && strings.Contains(h.printed(), "Wrote AGENTS.md.") })
	if got := b.read(t, "AGENTS.md"); got != "- Test: `make test`\n" {
		t.Errorf("AGENTS.md = %q", got)
	}
	if first := b.script.Requests()[0].Messages[0].Text; !strings.Contains(first, "draft this project's AGENTS.md") {
		t.Errorf("/init did not send its instruction:\n%s", first)
	}

	h.say("/export")
	name := ".agent/sessions/" + b.SessionID() + ".md"
	h.until("/export", func() bool { return strings.Contains(h.printed(), name) })
	if got := b.read(t, name); !strings.Contains(got, "- **write_file** operation_type=create file_path=AGENTS.md") {
		t.Errorf("the export lacks the write:\n%s", got)
	}
}
