package fsedit

import (
	"bytes"
	"testing"

	"github.com/agentcli/agent/tools"
)

func TestSessionStateCarriesReads(t *testing.T) {
	p := newProject(t, map[string]string{"a.md": "one\ntwo\n", "b.md": "bee\n"})
	wantOK(t, p.read("a.md"))
	wantOK(t, p.read("b.md"))
	var buf bytes.Buffer
	if err := p.sess.SaveState(&buf); err != nil {
		t.Fatal(err)
	}
	writeFile(t, p.dir+"/b.md", "changed elsewhere\n")

	// A new session (another process) that loads the state.
	s2 := NewSession(p.root)
	if err := s2.LoadState(bytes.NewReader(buf.Bytes())); err != nil {
		t.Fatal(err)
	}
	reg := tools.NewRegistry(s2.Tools()...)
	res, err := reg.Call(p.ctx, "write_file", kv("operation_type", "partial", "file_path", "a.md", "content", "TWO\n", "start_line", "2", "end_line", "2"))
	if err != nil {
		t.Fatal(err)
	}
	wantOK(t, res)
	if p.content("a.md") != "one\nTWO\n" {
		t.Errorf("a.md = %q", p.content("a.md"))
	}
	res, _ = reg.Call(p.ctx, "write_file", kv("operation_type", "rewrite", "file_path", "b.md", "content", "x\n"))
	wantCode(t, res, tools.CodeFileStale)
	if err := s2.LoadState(bytes.NewReader([]byte("not json"))); err == nil {
		t.Error("bad state accepted")
	}
}

// TestToolsNameTheirPaths: each file tool says which parameter is the
// project path it works on, for the permission rules and nested
// instructions.
func TestToolsNameTheirPaths(t *testing.T) {
	p := newProject(t, nil)
	want := map[string]string{"read_file": "file_path", "write_file": "file_path", "list_directory": "path", "search_files": "path"}
	for _, tool := range p.sess.Tools() {
		def := tool.Definition()
		if got := def.PathParams(); len(got) != 1 || got[0] != want[def.Name] {
			t.Errorf("%s: PathParams = %v, want [%s]", def.Name, got, want[def.Name])
		}
		if def.NotServed || def.RunsPrograms() {
			t.Errorf("%s: definition %+v: a file tool is served and runs nothing", def.Name, def)
		}
	}
}
