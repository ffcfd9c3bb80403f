package main

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

	"github.com/spf13/cobra"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/xmlcall"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/fsedit"
)

// scenario is one self-check: it sets up its project in st.dir and runs
// model replies through st.reply, recording checks with st.check.
type scenario func(ctx context.Context, st *selftest)

func newTestToolsCmd(d *factory) *cobra.Command {
	return newSelfTestCmd(d, "test-tools", "Check the file tools: read, list, search and the sandbox",
		`test-tools builds a small project and runs model replies through the same
parse, validate, execute and render path the agent uses: listing, reading
whole files and ranges, searching, the legacy [TOOL:...] form, and the
errors a model must get for a missing file, a path outside the project, a
protected folder, an unsupported type, an unknown tool or parameter.`, toolsScenario)
}

func newTestFileWriteCmd(d *factory) *cobra.Command {
	return newSelfTestCmd(d, "test-file-write", "Check write_file: create, rewrite, partial writes, guards, backups and undo",
		`test-file-write checks every operation of write_file in a small project:
create (with parent folders), rewrite and partial writes (replace, insert,
append), kept line endings and permissions, backups with their manifest,
the refusals a model must get (an existing file, a write without a read, a
file changed on disk, a placeholder rewrite, a bad range), and undo.`, fileWriteScenario)
}

func newTestCombinedCmd(d *factory) *cobra.Command {
	return newSelfTestCmd(d, "test-combined-tools", "Check a whole workflow from raw model text: calls, CDATA, errors, undo",
		`test-combined-tools starts from raw model replies, as a model writes them:
prose around several XML calls, a fenced call, CDATA holding markup and
"]]>", a deliberate error that makes the next write of the same reply be
skipped, and a call cut off before </tool_call> that must never run. It
checks the files, the rendered <tool_response> blocks, and that undo
reverts the reply that wrote.`, combinedScenario)
}

func newSelfTestCmd(d *factory, name, short, long string, run scenario) *cobra.Command {
	var (
		verbose, keep bool
		dir           string
	)
	cmd := &cobra.Command{
		Use:   name,
		Short: short,
		Long: long + `

Each check prints ✓ or ✗; -v also prints each model reply and the
<tool_response> blocks it got. The project is a fresh temporary folder,
removed afterwards unless --keep; --dir runs in the given folder instead,
which must be empty or not exist yet, and keeps it. The exit status is 1
if any check failed.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			st, cleanup, err := newSelftest(cmd.Context(), d, name, dir, keep)
			if err != nil {
				return err
			}
			defer cleanup()
			st.verbose = verbose
			fmt.Fprintf(d.io.Out, "%s: project %s\n", name, st.dir)
			run(cmd.Context(), st)
			if err := cmd.Context().Err(); err != nil {
				return err
			}
			fmt.Fprintf(d.io.Out, "%d checks: %d passed, %d failed\n", st.passed+st.failed, st.passed, st.failed)
			if st.failed > 0 {
				return exitError{code: exitFailed}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.BoolVarP(&verbose, "verbose", "v", false, "print each model reply and the rendered <tool_response> blocks")
	f.StringVar(&dir, "dir", "", "run in this folder (empty or new) instead of a temporary one, and keep it")
	f.BoolVar(&keep, "keep", false, "keep the temporary project afterwards")
	return cmd
}

// selftest is the state of one self-check run. Its replies go through
// the real loop (agent.Agent, with the configured tools) with a scripted
// model, so the checks test what users run, not a copy of it.
type selftest struct {
	io      *streams
	verbose bool
	dir     string
	root    *fsedit.Root
	reg     *tools.Registry
	conv    *conversation
	model   *scriptedReply
	replies int
	passed  int
	failed  int
}

func newSelftest(ctx context.Context, d *factory, name, dir string, keep bool) (*selftest, func(), error) {
	cleanup := func() {}
	if dir == "" {
		tmp, err := os.MkdirTemp("", "agent-"+name+"-")
		if err != nil {
			return nil, nil, fmt.Errorf("create the test project: %w", err)
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
				return nil, nil, fmt.Errorf("create the test project: %w", err)
			}
		case err != nil:
			return nil, nil, err
		case len(ents) > 0:
			return nil, nil, usageErrorf("--dir %s is not empty; the self-check writes files there, so give it an empty or new folder", dir)
		}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		cleanup()
		return nil, nil, err
	}
	model := &scriptedReply{}
	conv, err := d.newConversation(ctx, convOptions{
		dir:    abs,
		model:  model,
		system: "(the self-check's scripted model needs no system prompt)",
		// The checks are about the tools and the loop, not approval.
		policy: agent.PolicyAuto,
	})
	if err != nil {
		cleanup()
		return nil, nil, err
	}
	st := &selftest{io: d.io, dir: abs, root: conv.files.Root(), reg: conv.tools.reg, conv: conv, model: model}
	return st, func() { conv.Close(); cleanup() }, nil
}

// check records one check and prints its mark. detail says what went
// wrong; it is printed only on failure.
func (st *selftest) check(name string, ok bool, detail string, args ...any) bool {
	if ok {
		st.passed++
		fmt.Fprintf(st.io.Out, "✓ %s\n", name)
		return true
	}
	st.failed++
	fmt.Fprintf(st.io.Out, "✗ %s: %s\n", name, fmt.Sprintf(detail, args...))
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
func (st *selftest) reply(ctx context.Context, text string) turn {
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
		st.check(fmt.Sprintf("model reply %d runs through the loop", st.replies), false, "%v", err)
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
	if st.verbose {
		fmt.Fprintf(st.io.Out, "--- model reply %d ---\n%s\n--- tool responses ---\n%s\n", st.replies, strings.TrimSpace(text), t.rendered)
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
func (st *selftest) wantCode(t turn, id, name, code string) bool {
	res, ok := t.result(id)
	switch {
	case !ok:
		return st.check(name, false, "no response for call %s", id)
	case res.Code != code && code == "":
		return st.check(name, false, "got %s: %s", res.Code, res.Message)
	case res.Code != code:
		return st.check(name, false, "got %q (%s), want %s", res.Code, res.Message, code)
	}
	return st.check(name, true, "")
}

// file returns the content of a project file, or "<missing>".
func (st *selftest) file(name string) string {
	b, err := os.ReadFile(filepath.Join(st.dir, filepath.FromSlash(name)))
	if err != nil {
		return "<missing>"
	}
	return string(b)
}

// setup writes the scenario's starting files; a failure is a failed check.
func (st *selftest) setup(files map[string]string) {
	for name, content := range files {
		p := filepath.Join(st.dir, filepath.FromSlash(name))
		err := os.MkdirAll(filepath.Dir(p), 0o755)
		if err == nil {
			err = os.WriteFile(p, []byte(content), 0o644)
		}
		if err != nil {
			st.check("set up "+name, false, "%v", err)
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
