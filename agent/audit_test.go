package agent

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestAuditRecordsEveryCall(t *testing.T) {
	long := strings.Repeat("é", 300)
	e := newEnv(t, texts(
		readREADME+"\n<tool_call name=\"write_file\" id=\"2\"><operation_type>create</operation_type><file_path>n.md</file_path><content>"+long+"</content></tool_call>\n<tool_call name=\"write_file\" id=\"3\"><operation_type>create</operation_type><file_path>cut.md</file_path>",
		"ok")...)
	e.writeFile("README.md", "r")
	if _, err := e.run("go"); err != nil {
		t.Fatal(err)
	}
	lines := readJSONL(t, filepath.Join(e.root, AuditFile))
	if len(lines) != 3 {
		t.Fatalf("audit has %d lines, want 3", len(lines))
	}
	for i, want := range []struct{ id, tool, outcome, code string }{
		{"1", "read_file", "ok", ""},
		{"2", "write_file", "ok", ""},
		{"3", "write_file", "broken", "CALL_INCOMPLETE"},
	} {
		l := lines[i]
		if l["call_id"] != want.id || l["tool"] != want.tool || l["outcome"] != want.outcome || (l["code"] != nil && l["code"] != want.code) || (l["code"] == nil && want.code != "") {
			t.Errorf("line %d = %v, want %+v", i+1, l, want)
		}
		if l["session"] != e.agent.Session.ID || l["time"] == nil || l["duration_ms"] == nil {
			t.Errorf("line %d lacks session, time or duration: %v", i+1, l)
		}
	}
	content := lines[1]["params"].(map[string]any)["content"].(string)
	if len(content) > auditValueMax+40 || !strings.Contains(content, "more bytes]") {
		t.Errorf("long value not shortened: %d bytes %q", len(content), content)
	}
	if !strings.HasPrefix(content, "éé") || strings.ContainsRune(content, '\uFFFD') {
		t.Errorf("shortened value broke a character: %q", content[:20])
	}
}

func TestAuditNeverHoldsAKey(t *testing.T) {
	got := auditParams(map[string]string{
		"api_key":   "abc",
		"Token":     "abc",
		"content":   "export OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwxyz123456\nrest",
		"file_path": "a.go",
		"header":    "Authorization: Bearer abcdefghijklmnopqrstuvwxyz.123",
		"gemini":    "key=AIzaSyA1234567890abcdefghijklmnopqrstuv",
	})
	for k, v := range got {
		for _, secret := range []string{"abc", "sk-proj-", "abcdefghijklmnop", "AIzaSy"} {
			if strings.Contains(v, secret) && k != "file_path" {
				t.Errorf("%s = %q still holds %q", k, v, secret)
			}
		}
	}
	if got["file_path"] != "a.go" || !strings.HasSuffix(got["content"], "\nrest") {
		t.Errorf("ordinary values changed: %q", got)
	}
}
