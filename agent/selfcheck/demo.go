package selfcheck

import (
	"context"
	"fmt"
	"io"
	"iter"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/conversation"
	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/xmlcall"
)

// DemoPrompt is the request of the demo, scripted or live.
const DemoPrompt = "Add a short Usage section at the end of README.md, then tell me what notes/todo.md asks for."

// DemoFiles is the temporary project the demo works in.
var DemoFiles = map[string]string{
	"README.md":     "# Demo project\n\nA tiny project for the agent demo.\n\nIts open tasks are in notes/todo.md.\n",
	"notes/todo.md": "# To do\n\n- write the usage section\n- add a licence file\n",
	"main.go":       "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hello\") }\n",
}

// demoReplies is what the built-in model answers: a read, a partial write
// that appends to the file it read, another read, and the answer. Any
// file tool error would show in the printed responses.
var demoReplies = []string{
	"I'll read README.md first, to see where the section goes.\n\n" +
		"<tool_call name=\"read_file\" id=\"1\">\n  <file_path>README.md</file_path>\n</tool_call>\n",
	"README.md has 5 lines. I'll append the section after line 5 with a partial write, and read the to-do list.\n\n" +
		"<tool_call name=\"write_file\" id=\"2\">\n  <operation_type>partial</operation_type>\n  <file_path>README.md</file_path>\n  <start_line>6</start_line>\n" +
		"  <content>\n\n## Usage\n\nRun `go run .` to print a greeting.\n</content>\n</tool_call>\n\n" +
		"<tool_call name=\"read_file\" id=\"3\">\n  <file_path>notes/todo.md</file_path>\n</tool_call>\n",
	"Done. README.md now ends with a **Usage** section (the old version is backed up under `.agent/backups`).\n\n" +
		"notes/todo.md asks for two things: write the usage section (now done) and add a licence file.\n",
}

// DemoModel is the built-in scripted model of the demo.
func DemoModel() llm.Model { return &demoModel{replies: demoReplies} }

// WriteDemoProject writes DemoFiles into dir.
func WriteDemoProject(dir string) error {
	for name, content := range DemoFiles {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Demo sends DemoPrompt to conv, a conversation in the demo project,
// and prints to w the whole conversation as it goes: the model's text,
// each tool call as the model wrote it, and each <tool_response> sent
// back (whole with verbose, which shows the system prompt first too);
// then what changed, and README.md as it is now.
func Demo(ctx context.Context, conv *conversation.Conversation, w io.Writer, verbose bool) error {
	dir := conv.Dir()
	fmt.Fprintf(w, "agent demo: %s works in a temporary project, %s\n", conv.Model().Name(), dir)
	fmt.Fprintf(w, "files: %s\n", strings.Join(sortedKeys(DemoFiles), ", "))
	p := &demoPrinter{w: w, whole: verbose}
	if verbose {
		p.section("system prompt")
		fmt.Fprintln(w, strings.TrimRight(conv.System(), "\n"))
	}
	p.section("user")
	fmt.Fprintln(w, DemoPrompt)
	out, err := conv.Run(ctx, DemoPrompt, p.event)
	if err != nil {
		return err
	}
	p.section("end")
	changed := map[string]bool{}
	for _, c := range out.Calls {
		for _, f := range c.Result.Changed {
			changed[f] = true
		}
	}
	fmt.Fprintf(w, "%s, %s; files changed: %s\n", plural(out.Iterations, "model call", "model calls"), plural(len(out.Calls), "tool call", "tool calls"), orNone(sortedKeys(changed)))
	if b, err := os.ReadFile(filepath.Join(dir, "README.md")); err == nil {
		fmt.Fprintf(w, "\nREADME.md is now:\n%s", indent(string(b)))
	}
	return nil
}

// plural words a count: "1 model call", "3 model calls".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// demoPrinter prints the conversation as it happens: the model's text as
// it streams, each call as the model wrote it, and each response as the
// model will read it.
type demoPrinter struct {
	w         io.Writer
	whole     bool // show responses whole (-v)
	iteration int
	results   bool // a responses section is open
	midLine   bool
}

func (p *demoPrinter) section(title string) {
	if p.midLine {
		fmt.Fprintln(p.w)
		p.midLine = false
	}
	fmt.Fprintf(p.w, "\n── %s %s\n", title, strings.Repeat("─", max(3, 60-len(title))))
}

func (p *demoPrinter) event(ev agent.Event) {
	if ev.Iteration != p.iteration && (ev.Type == agent.EventText || ev.Type == agent.EventCall) {
		p.iteration = ev.Iteration
		p.results = false
		p.section(fmt.Sprintf("model, reply %d", ev.Iteration))
	}
	switch ev.Type {
	case agent.EventText:
		fmt.Fprint(p.w, ev.Text)
		p.midLine = !strings.HasSuffix(ev.Text, "\n")
	case agent.EventCall:
		// The call as the loop recognised it, written back as XML: what
		// the model wrote, normalised.
		if p.midLine {
			fmt.Fprintln(p.w)
		}
		fmt.Fprint(p.w, xmlcall.RenderCall(*ev.Call))
		p.midLine = false
	case agent.EventResult:
		if !p.results {
			p.results = true
			p.section("tool responses, sent back as one user turn")
		}
		r := ev.Result.Response()
		if !p.whole {
			r.Content = shortenLines(r.Content, 12)
		}
		fmt.Fprint(p.w, xmlcall.RenderString(r))
	case agent.EventRetry:
		fmt.Fprintf(p.w, "\n[%s]\n", ev.Text)
	}
}

// shortenLines keeps the first n lines of s, saying how many were left out.
func shortenLines(s string, n int) string {
	lines := strings.SplitAfter(s, "\n")
	if len(lines) <= n+1 {
		return s
	}
	return strings.Join(lines[:n], "") + fmt.Sprintf("[... %d more lines]\n", len(lines)-n)
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n    ") + "\n"
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

// demoModel is the built-in scripted model: it streams its replies in
// small pieces, one reply per request, as a provider would. (The test
// package's Script is not used so that the binary does not link the
// testing packages.)
type demoModel struct {
	replies []string
	n       int
}

func (m *demoModel) Name() string { return "the built-in scripted model" }

func (m *demoModel) Stream(ctx context.Context, _ llm.Request) iter.Seq2[llm.Chunk, error] {
	return func(yield func(llm.Chunk, error) bool) {
		if m.n >= len(m.replies) {
			yield(llm.Chunk{}, fmt.Errorf("the demo script has no reply %d", m.n+1))
			return
		}
		text := m.replies[m.n]
		m.n++
		for len(text) > 0 {
			if err := ctx.Err(); err != nil {
				yield(llm.Chunk{}, err)
				return
			}
			k := min(12, len(text))
			if !yield(llm.Chunk{Text: text[:k]}, nil) {
				return
			}
			text = text[k:]
		}
		yield(llm.Chunk{Finish: "stop"}, nil)
	}
}
