package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/tools"
)

func TestWritePreview(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(outside, []byte("secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "link.txt")); err != nil {
		t.Fatal(err)
	}
	req := func(values map[string]any) agent.ApprovalRequest {
		return agent.ApprovalRequest{Tool: tools.Definition{Name: "write_file"}, Input: tools.Input{Values: values}}
	}
	cases := []struct {
		name   string
		req    agent.ApprovalRequest
		want   []string
		absent []string
	}{
		{"rewrite shows a diff", req(map[string]any{"operation_type": "rewrite", "file_path": "a.txt", "content": "one\nTWO\n"}),
			[]string{"--- a/a.txt", "-two", "+TWO"}, nil},
		{"create shows the new lines", req(map[string]any{"operation_type": "create", "file_path": "n.txt", "content": "x\ny\n"}),
			[]string{"+ x\n+ y\n"}, nil},
		{"partial shows the range", req(map[string]any{"operation_type": "partial", "file_path": "a.txt", "content": "z\n", "start_line": 2, "end_line": 2}),
			[]string{"replacing lines 2-2", "+ z"}, nil},
		{"long content is clipped", req(map[string]any{"operation_type": "create", "file_path": "n.txt", "content": strings.Repeat("l\n", 50)}),
			[]string{"… 30 more lines"}, nil},
		{"a link out of the project shows nothing of the target", req(map[string]any{"operation_type": "rewrite", "file_path": "link.txt", "content": "x\n"}),
			nil, []string{"secret"}},
		{"other tools get no preview", agent.ApprovalRequest{Tool: tools.Definition{Name: "note_create"}}, nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := writePreview(root, tc.req)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("preview %q lacks %q", got, w)
				}
			}
			for _, a := range tc.absent {
				if strings.Contains(got, a) {
					t.Errorf("preview %q shows %q", got, a)
				}
			}
			if tc.want == nil && got != "" && tc.absent == nil {
				t.Errorf("preview = %q, want none", got)
			}
		})
	}
}
