// Package selfcheck runs scripted model replies through the real loop,
// with the configured tools, in a temporary project: the self-checks
// (agent test-tools, test-file-write, test-combined-tools), which test
// what users run rather than a copy of it, and the demo (agent
// demo-chat-tools), which shows the whole loop at work.
package selfcheck

import (
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/app"
	"github.com/agentcli/agent/agent/conversation"
	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/xmlcall"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/sandbox"
)

// Scenario is one self-check: it sets up its project in the checker's
// folder and runs model replies through the loop, recording checks with
// Check.
type Scenario func(ctx context.Context, st *Checker)

// Checker is the state of one self-check run. Its replies go through
// the real loop (a Conversation, with the configured tools) with a
// scripted model, so the checks test what users run, not a copy of it.
type Checker struct {
	out io.Writer
	// Verbose prints each model reply and the responses it got.
	Verbose bool
	dir     string
	root    *sandbox.Root
	reg     *tools.Registry
	conv    *conversation.Conversation
	model   *scriptedReply
	replies int
	passed  int
	failed  int
}

// ErrNotEmpty is Folder's answer for a folder that already holds files.
var ErrNotEmpty = errors.New("the folder is not empty")

// Folder is the project folder of the self-check name, absolute: a new
// temporary one (removed by cleanup unless keep), or dir, which must be
// empty (ErrNotEmpty) or not exist yet.
func Folder(name, dir string, keep bool) (abs string, cleanup func(), err error) {
	cleanup = func() {}
	if dir == "" {
		tmp, err := os.MkdirTemp("", "agent-"+name+"-")
		if err != nil {
			return "", nil, fmt.Errorf("create the test project: %w", err)
		}
		dir = tmp
		if !keep {
			cleanup = func() { os.RemoveAll(tmp) }
		}
	} else {
		ents, err := os.ReadDir(dir)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return "", nil, fmt.Errorf("create the test project: %w", err)
			}
		case err != nil:
			return "", nil, err
		case len(ents) > 0:
			return "", nil, ErrNotEmpty
		}
	}
	if abs, err = filepath.Abs(dir); err != nil {
		cleanup()
		return "", nil, err
	}
	return abs, cleanup, nil
}

// New builds a checker in the project folder dir (absolute, empty),
// writing its marks to out.
func New(ctx context.Context, b *app.Builder, dir string, out io.Writer) (*Checker, error) {
	model := &scriptedReply{}
	conv, err := b.New(ctx, conversation.Options{
		Dir:    dir,
		Model:  model,
		System: "(the self-check's scripted model needs no system prompt)",
		// The checks are about the tools and the loop, not approval.
		Policy: agent.PolicyAuto,
	})
	if err != nil {
		return nil, err
	}
	return &Checker{out: out, dir: dir, root: conv.Root(), reg: conv.Tools(), conv: conv, model: model}, nil
}

// Close closes the checker's conversation.
func (st *Checker) Close() error { return st.conv.Close() }

// Passed and Failed count the checks so far.
func (st *Checker) Passed() int { return st.passed }

// Failed counts the checks that failed so far.
func (st *Checker) Failed() int { return st.failed }

// Check records one check and prints its mark. detail says what went
// wrong; it is printed only on failure.
func (st *Checker) Check(name string, ok bool, detail string, args ...any) bool {
	if ok {
		st.passed++
		fmt.Fprintf(st.out, "✓ %s\n", name)
		return true
	}
	st.failed++
	fmt.Fprintf(st.out, "✗ %s: %s\n", name, fmt.Sprintf(detail, args...))
	return false
}

// turn is one model reply and what the agent made of it.
type turn struct {
	results  []agent.CallResult // one per call or broken call, in reply order
	rendered string             // the <tool_response> blocks sent back
	ran      []bool             // whether each result's call was executed
}

// result returns the result for call id.
func (t turn) result(id string) (tools.Result, bool) {
	for _, r := range t.results {
		if r.ID == id {
			return r.Result, true
		}
	}
	return tools.Result{}, false
}

// reply sends one model reply through the real loop: the scripted model
// answers the check's request with text, and then with a closing line
// once it has the tool responses. The turn holds what the loop made of
// the reply's calls.
func (st *Checker) reply(ctx context.Context, text string) turn {
	st.replies++
	st.model.next = []string{text, "(self-check reply done)"}
	var t turn
	started := map[string]bool{}
	out, err := st.conv.Run(ctx, fmt.Sprintf("self-check step %d", st.replies), func(ev agent.Event) {
		if ev.Type == agent.EventToolStart {
			started[ev.Call.ID] = true
		}
	})
	if err != nil {
		st.Check(fmt.Sprintf("model reply %d runs through the loop", st.replies), false, "%v", err)
	}
	if out != nil {
		t.results = out.Calls
	}
	var b strings.Builder
	for _, r := range t.results {
		xmlcall.Render(&b, r.Response())
		t.ran = append(t.ran, started[r.ID])
	}
	t.rendered = b.String()
	if st.Verbose {
		fmt.Fprintf(st.out, "--- model reply %d ---\n%s\n--- tool responses ---\n%s\n", st.replies, strings.TrimSpace(text), t.rendered)
	}
	return t
}

// scriptedReply is the self-checks' model: it answers each request with
// the next of its texts.
type scriptedReply struct {
	next []string
}

func (m *scriptedReply) Name() string { return "self-check/scripted" }

func (m *scriptedReply) Stream(ctx context.Context, _ llm.Request) iter.Seq2[llm.Chunk, error] {
	return func(yield func(llm.Chunk, error) bool) {
		if len(m.next) == 0 {
			yield(llm.Chunk{}, errors.New("the self-check's scripted model has no reply left"))
			return
		}
		text := m.next[0]
		m.next = m.next[1:]
		yield(llm.Chunk{Text: text, Finish: "stop"}, nil)
	}
}

// wantCode checks that call id of t answered code ("" for success).
func (st *Checker) wantCode(t turn, id, name, code string) bool {
	res, ok := t.result(id)
	switch {
	case !ok:
		return st.Check(name, false, "no response for call %s", id)
	case res.Code != code && code == "":
		return st.Check(name, false, "got %s: %s", res.Code, res.Message)
	case res.Code != code:
		return st.Check(name, false, "got %q (%s), want %s", res.Code, res.Message, code)
	}
	return st.Check(name, true, "")
}

// file returns the content of a project file, or "<missing>".
func (st *Checker) file(name string) string {
	b, err := os.ReadFile(filepath.Join(st.dir, filepath.FromSlash(name)))
	if err != nil {
		return "<missing>"
	}
	return string(b)
}

// setup writes the scenario's starting files; a failure is a failed check.
func (st *Checker) setup(files map[string]string) {
	for name, content := range files {
		p := filepath.Join(st.dir, filepath.FromSlash(name))
		err := os.MkdirAll(filepath.Dir(p), 0o755)
		if err == nil {
			err = os.WriteFile(p, []byte(content), 0o644)
		}
		if err != nil {
			st.Check("set up "+name, false, "%v", err)
		}
	}
}

// wellFormed reports whether rendered responses parse as XML.
func wellFormed(rendered string) error {
	dec := xml.NewDecoder(strings.NewReader("<responses>" + rendered + "</responses>"))
	for {
		_, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
