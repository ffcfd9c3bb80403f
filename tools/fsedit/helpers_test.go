package fsedit

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcli/agent/prompt"
	"github.com/agentcli/agent/tools/sandbox"

	"github.com/agentcli/agent/tools"
)

// project is a temp project with a fresh session and registry.
type project struct {
	t    *testing.T
	dir  string
	root *sandbox.Root
	sess *Session
	reg  *tools.Registry
	ctx  context.Context
}

func newProject(t *testing.T, files map[string]string) *project {
	t.Helper()
	return newProjectOpts(t, files, sandbox.Options{})
}

func newProjectOpts(t *testing.T, files map[string]string, opts sandbox.Options) *project {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		writeFile(t, filepath.Join(dir, name), content)
	}
	if opts.NewIgnorer == nil {
		// The matcher the agent injects: the file tree's.
		opts.NewIgnorer = func(dir string) (sandbox.Ignorer, error) { return prompt.NewIgnore(dir) }
	}
	root := sandbox.NewRoot(dir, opts)
	t.Cleanup(func() { root.Close() })
	sess := NewSession(root)
	ctx := tools.WithInfo(t.Context(), tools.CallInfo{SessionID: "s1", CallID: "c1", ChangeSet: "cs1"})
	return &project{t: t, dir: dir, root: root, sess: sess, reg: tools.NewRegistry(sess.Tools()...), ctx: ctx}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// call runs one tool call through the registry, as the agent loop does,
// and fails the test on a Go error.
func (p *project) call(name string, args map[string]string) tools.Result {
	p.t.Helper()
	res, err := p.reg.Call(p.ctx, name, args)
	if err != nil {
		p.t.Fatalf("%s(%v): Go error %v", name, args, err)
	}
	return res
}

// kv builds an argument map from alternating names and values.
func kv(pairs ...string) map[string]string {
	m := map[string]string{}
	for i := 0; i+1 < len(pairs); i += 2 {
		m[pairs[i]] = pairs[i+1]
	}
	return m
}

func (p *project) read(path string, more ...string) tools.Result {
	p.t.Helper()
	return p.call("read_file", kv(append([]string{"file_path", path}, more...)...))
}

func (p *project) write(op, path, content string, more ...string) tools.Result {
	p.t.Helper()
	return p.call("write_file", kv(append([]string{"operation_type", op, "file_path", path, "content", content}, more...)...))
}

func (p *project) content(name string) string {
	p.t.Helper()
	b, err := os.ReadFile(filepath.Join(p.dir, name))
	if err != nil {
		p.t.Fatal(err)
	}
	return string(b)
}

func wantOK(t *testing.T, res tools.Result) {
	t.Helper()
	if res.IsError() {
		t.Fatalf("got error %s: %s, want success", res.Code, res.Message)
	}
}

// wantCode checks the code and that the message names what would work.
func wantCode(t *testing.T, res tools.Result, code string, hints ...string) {
	t.Helper()
	if res.Code != code {
		t.Fatalf("got code %q (%s), want %s", res.Code, res.Message, code)
	}
	if strings.ContainsAny(res.Message, "\r\n") {
		t.Errorf("message is not one line: %q", res.Message)
	}
	for _, h := range hints {
		if !strings.Contains(res.Message, h) {
			t.Errorf("message %q does not mention %q", res.Message, h)
		}
	}
}

func meta(res tools.Result, name string) string {
	for _, a := range res.Metadata {
		if a.Name == name {
			return a.Value
		}
	}
	return ""
}

// tempFiles lists leftover temp files under dir.
func tempFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), sandbox.TmpMarker) {
			out = append(out, p)
		}
		return nil
	})
	return out
}
