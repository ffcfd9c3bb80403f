package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/config"
)

// TestServeKeepsTheGuards serves a project whose user denies writes under
// secret/ and note deletions: the MCP write and the REST delete are
// refused, the others run, and every one of them is in the audit log.
func TestServeKeepsTheGuards(t *testing.T) {
	root := t.TempDir()
	cfg := config.Defaults()
	cfg.Permissions.Deny = []string{"secret/**", "note_delete"}
	d := &factory{io: &streams{}}
	sv, err := d.mcpServer(t.Context(), root, cfg, true)
	if err != nil {
		t.Fatal(err)
	}
	defer sv.close()
	if sv.notes == nil {
		t.Fatal("no notes REST API")
	}

	st, ct := mcp.NewInMemoryTransports()
	ss, err := sv.mcp.Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for path, refused := range map[string]bool{"secret/key.txt": true, "docs/a.txt": false} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "write_file", Arguments: map[string]any{
			"operation_type": "create", "file_path": path, "content": "x"}})
		if err != nil {
			t.Fatal(err)
		}
		text := res.Content[0].(*mcp.TextContent).Text
		if res.IsError != refused || refused && !strings.Contains(text, `TOOL_POLICY_DENIED: write_file was not run: the user's rule permissions.deny "secret/**" refuses it`) {
			t.Errorf("write_file %s: isError %v, %q", path, res.IsError, text)
		}
		if _, err := os.Stat(filepath.Join(root, path)); (err == nil) == refused {
			t.Errorf("write_file %s: on disk = %v, want %v", path, err == nil, !refused)
		}
	}

	rest := func(method, path, body string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		sv.notes.ServeHTTP(rec, httptest.NewRequest(method, path, strings.NewReader(body)))
		return rec
	}
	created := rest("POST", "/notes", `{"title":"plan","content":"the plan"}`)
	if created.Code != http.StatusCreated {
		t.Fatalf("POST /notes: %d %s", created.Code, created.Body)
	}
	var note struct{ ID int64 }
	if err := json.Unmarshal(created.Body.Bytes(), &note); err != nil || note.ID == 0 {
		t.Fatalf("created %s: %v", created.Body, err)
	}
	id := "/notes/" + jsonNumber(note.ID)
	del := rest("DELETE", id, "")
	if del.Code != http.StatusForbidden || !strings.Contains(del.Body.String(), `"code":"TOOL_POLICY_DENIED"`) || !strings.Contains(del.Body.String(), `permissions.deny \"note_delete\"`) {
		t.Errorf("DELETE %s: %d %s", id, del.Code, del.Body)
	}
	if got := rest("GET", id, ""); got.Code != http.StatusOK {
		t.Errorf("the note is gone after a refused delete: %d %s", got.Code, got.Body)
	}
	if got := rest("PATCH", "/notes/999999", `{"content":"x"}`); got.Code != http.StatusNotFound {
		t.Errorf("PATCH of a missing note: %d", got.Code)
	}
	if got := rest("POST", "/notes/batch", `{"notes":[{"title":"b1","content":"one"},{"title":"b2","content":"two"}]}`); got.Code != http.StatusCreated {
		t.Errorf("POST /notes/batch: %d %s", got.Code, got.Body)
	}

	entries := auditEntries(t, root)
	want := []struct{ tool, outcome, code, rule, param string }{
		{"write_file", agent.OutcomeDenied, "TOOL_POLICY_DENIED", `permissions.deny "secret/**"`, "secret/key.txt"},
		{"write_file", agent.OutcomeOK, "", "", "docs/a.txt"},
		{"note_create", agent.OutcomeOK, "", "", "plan"},
		{"note_delete", agent.OutcomeDenied, "TOOL_POLICY_DENIED", `permissions.deny "note_delete"`, jsonNumber(note.ID)},
		{"note_update", agent.OutcomeError, "NOTE_NOT_FOUND", "", "999999"},
		{"note_create", agent.OutcomeOK, "", "", "2 notes"},
	}
	for _, w := range want {
		found := false
		for _, e := range entries {
			hasParam := false
			for _, v := range e.Params {
				hasParam = hasParam || v == w.param
			}
			found = found || e.Tool == w.tool && e.Outcome == w.outcome && e.Code == w.code && e.Rule == w.rule && hasParam &&
				strings.HasPrefix(e.Session, "serve-")
		}
		if !found {
			t.Errorf("no audit entry %+v in %+v", w, entries)
		}
	}
}

// TestServeBatchIsJudged: a deny rule on note_create refuses a batch of
// creations as it refuses one, and nothing of the batch is stored.
func TestServeBatchIsJudged(t *testing.T) {
	root := t.TempDir()
	cfg := config.Defaults()
	cfg.Permissions.Deny = []string{"note_create"}
	d := &factory{io: &streams{}}
	sv, err := d.mcpServer(t.Context(), root, cfg, true)
	if err != nil {
		t.Fatal(err)
	}
	defer sv.close()
	rec := httptest.NewRecorder()
	sv.notes.ServeHTTP(rec, httptest.NewRequest("POST", "/notes/batch", strings.NewReader(`{"notes":[{"title":"b1","content":"one"}]}`)))
	if rec.Code != http.StatusForbidden || !strings.Contains(rec.Body.String(), "TOOL_POLICY_DENIED") {
		t.Fatalf("POST /notes/batch under deny note_create: %d %s", rec.Code, rec.Body)
	}
	list := httptest.NewRecorder()
	sv.notes.ServeHTTP(list, httptest.NewRequest("GET", "/notes", nil))
	if strings.Contains(list.Body.String(), "b1") {
		t.Errorf("a refused batch stored its notes: %s", list.Body)
	}
}

func jsonNumber(n int64) string { b, _ := json.Marshal(n); return string(b) }

func auditEntries(t *testing.T, root string) []agent.AuditEntry {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, agent.AuditFile))
	if err != nil {
		t.Fatal(err)
	}
	var es []agent.AuditEntry
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var e agent.AuditEntry
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("audit line %q: %v", line, err)
		}
		es = append(es, e)
	}
	return es
}
