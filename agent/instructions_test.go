package agent

import (
	"context"
	"iter"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/tools"
)

func TestNestedInstructionsFollowTheResponses(t *testing.T) {
	e := newEnv(t, texts(
		`<tool_call name="read_file"><file_path>web/a.js</file_path></tool_call>`,
		`<tool_call name="read_file"><file_path>web/b.js</file_path></tool_call>`,
		"done",
	)...)
	e.writeFile("a.js", "x")
	given := map[string]bool{}
	e.agent.Instructions = func(p string) (string, string) {
		if !strings.HasPrefix(p, "web/") || given["web"] {
			return "", ""
		}
		given["web"] = true
		return "web/AGENTS.md", "use tabs in web"
	}
	if _, err := e.run("read them"); err != nil {
		t.Fatal(err)
	}
	reqs := e.model.Requests()
	if got := reqs[1].Messages[2].Text; !strings.Contains(got, "[Instructions from web/AGENTS.md, for the files in web/: follow them there.]\n\nuse tabs in web") {
		t.Errorf("the turn after the first call in web/ lacks its instructions: %q", got)
	}
	if got := reqs[2].Messages[4].Text; strings.Contains(got, "use tabs") {
		t.Errorf("the instructions were given twice: %q", got)
	}
}

// TestNestedInstructionsOnlyForProjectPaths: a parameter called path that
// its tool does not mark as a project path (another server's tool, whose
// paths are its own) brings no instructions file.
func TestNestedInstructionsOnlyForProjectPaths(t *testing.T) {
	e := newEnv(t, texts(`<tool_call name="remote_get"><path>web/a.js</path></tool_call>`, "done")...)
	type remoteArgs struct {
		Path string `json:"path"`
	}
	e.agent.Tools.Add(tools.New("remote_get", "Gets from elsewhere.", func(context.Context, remoteArgs) (tools.Result, error) {
		return tools.Result{Message: "got"}, nil
	}))
	asked := false
	e.agent.Instructions = func(string) (string, string) { asked = true; return "web/AGENTS.md", "use tabs in web" }
	if _, err := e.run("get it"); err != nil {
		t.Fatal(err)
	}
	if asked {
		t.Error("instructions were looked up for a parameter that is not a project path")
	}
}

func TestThoughtsAreEventsNotCalls(t *testing.T) {
	e := newEnv(t)
	// A model whose thinking holds a call: it is shown, never run.
	e.agent.Model = thinkingModel{thought: `<tool_call name="write_file"><operation_type>create</operation_type><file_path>x</file_path><content>y</content></tool_call>`, text: "The answer."}
	out, err := e.run("think")
	if err != nil {
		t.Fatal(err)
	}
	var thoughts []string
	for _, ev := range e.events {
		if ev.Type == EventThought {
			thoughts = append(thoughts, ev.Text)
		}
	}
	if len(thoughts) != 1 || len(out.Calls) != 0 || e.exists("x") || out.Answer != "The answer." {
		t.Errorf("thoughts %q, calls %d, answer %q: want the thought as an event and no call run", thoughts, len(out.Calls), out.Answer)
	}
	if msgs := e.agent.Session.Messages(); strings.Contains(msgs[len(msgs)-1].Text, "tool_call") {
		t.Error("the thought went into the conversation")
	}
}

type thinkingModel struct{ thought, text string }

func (m thinkingModel) Name() string { return "thinking" }

func (m thinkingModel) Stream(context.Context, llm.Request) iter.Seq2[llm.Chunk, error] {
	return func(yield func(llm.Chunk, error) bool) {
		if yield(llm.Chunk{Thought: m.thought}, nil) {
			yield(llm.Chunk{Text: m.text, Finish: "stop"}, nil)
		}
	}
}

func TestCompactOnRequest(t *testing.T) {
	e := newEnv(t, texts(
		`<tool_call name="read_file"><file_path>a.txt</file_path></tool_call>`,
		"It says hello.",
		"The user asked what a.txt says; it says hello.",
		"Yes.",
	)...)
	e.writeFile("a.txt", "hello")
	if _, err := e.run("what does a.txt say?"); err != nil {
		t.Fatal(err)
	}
	var compacted bool
	if _, err := e.agent.Compact(t.Context(), func(ev Event) { compacted = compacted || ev.Type == EventCompact }); err != nil {
		t.Fatal(err)
	}
	msgs := e.agent.Session.Messages()
	if !compacted || len(msgs) != 2 || !strings.Contains(msgs[0].Text, "it says hello") || msgs[1].Text != "It says hello." {
		t.Fatalf("after /compact: %d messages %+v", len(msgs), msgs)
	}
	if _, err := e.run("sure?"); err != nil {
		t.Fatal(err)
	}
	reqs := e.model.Requests()
	if sum := reqs[2].Messages; !strings.Contains(sum[len(sum)-1].Text, "write a summary") {
		t.Error("the summary request does not end with the request for a summary")
	}
	if last := reqs[3].Messages; len(last) != 3 || !strings.HasPrefix(last[0].Text, "[Summary of the earlier conversation") {
		t.Errorf("the next run sent %+v", last)
	}
}
