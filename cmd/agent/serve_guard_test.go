package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/tools/notes"
)

// TestServeKeepsTheGuards serves a project whose user denies writes under
// secret/ and note deletions: the MCP write and the REST delete are
// refused, the others run, and every one of them is in the audit log.
func TestServeKeepsTheGuards(t *testing.T) {
	root := t.TempDir()
	cfg := config.Defaults()
	cfg.Permissions.Deny = []string{"secret/**", "note_delete"}
	d := &factory{io: &streams{}}
	sv, err := d.builder().Serve(t.Context(), root, cfg, true)
	if err != nil {
		t.Fatal(err)
	}
	defer sv.Close()
	if sv.Notes == nil {
		t.Fatal("no notes REST API")
	}

	st, ct := mcp.NewInMemoryTransports()
	ss, err := sv.MCP.Connect(t.Context(), st, nil)
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
		sv.Notes.ServeHTTP(rec, httptest.NewRequest(method, path, strings.NewReader(body)))
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
	batch := rest("POST", "/notes/batch", `{"notes":[{"title":"b1","content":"one"},{"title":"b2","content":"two"}]}`)
	var made struct{ IDs []int64 }
	if batch.Code != http.StatusCreated || json.Unmarshal(batch.Body.Bytes(), &made) != nil || len(made.IDs) != 2 {
		t.Fatalf("POST /notes/batch: %d %s", batch.Code, batch.Body)
	}

	entries := auditEntries(t, root)
	want := []struct{ tool, outcome, code, rule, param string }{
		{"write_file", agent.OutcomeDenied, "TOOL_POLICY_DENIED", `permissions.deny "secret/**"`, "secret/key.txt"},
		{"write_file", agent.OutcomeOK, "", "", "docs/a.txt"},
		{"note_create", agent.OutcomeOK, "", "", "plan"},
		{"note_delete", agent.OutcomeDenied, "TOOL_POLICY_DENIED", `permissions.deny "note_delete"`, jsonNumber(note.ID)},
		{"note_update", agent.OutcomeError, "NOTE_NOT_FOUND", "", "999999"},
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

// TestServeBatchAuditsEachNote: a REST batch writes one audit line per
// note, with its title and the id it was given, under the request's call
// id; refused, one line per note too, with the rule; a single create's
// line has its note's id.
func TestServeBatchAuditsEachNote(t *testing.T) {
	for _, deny := range []bool{false, true} {
		root := t.TempDir()
		cfg := config.Defaults()
		if deny {
			cfg.Permissions.Deny = []string{"note_create"}
		}
		sv, err := (&factory{io: &streams{}}).builder().Serve(t.Context(), root, cfg, true)
		if err != nil {
			t.Fatal(err)
		}
		defer sv.Close()
		rest := func(path, body string) *httptest.ResponseRecorder {
			rec := httptest.NewRecorder()
			sv.Notes.ServeHTTP(rec, httptest.NewRequest("POST", path, strings.NewReader(body)))
			return rec
		}
		one := rest("/notes", `{"title":"solo","content":"x"}`)
		batch := rest("/notes/batch", `{"notes":[{"title":"b1","content":"one"},{"title":"b2","content":"two","folder":"imp"},{"title":"b3","content":"three"}]}`)
		var made struct{ IDs []int64 }
		json.Unmarshal(batch.Body.Bytes(), &made)
		var single struct{ ID int64 }
		json.Unmarshal(one.Body.Bytes(), &single)
		entries := auditEntries(t, root)
		if len(entries) != 4 {
			t.Fatalf("deny %v: %d audit lines, want 1 for the note and 3 for the batch: %+v", deny, len(entries), entries)
		}
		if !deny && entries[0].Params["note_id"] != jsonNumber(single.ID) {
			t.Errorf("the create's line %+v lacks its id %d", entries[0].Params, single.ID)
		}
		for i, e := range entries[1:] {
			want := map[string]string{"title": fmt.Sprintf("b%d", i+1)}
			if !deny {
				want["note_id"] = jsonNumber(made.IDs[i])
			}
			for k, v := range want {
				if e.Params[k] != v {
					t.Errorf("deny %v: batch line %d has %s = %q, want %q: %+v", deny, i+1, k, e.Params[k], v, e)
				}
			}
			if e.Tool != "note_create" || e.CallID != entries[1].CallID || e.CallID == entries[0].CallID ||
				deny != (e.Outcome == agent.OutcomeDenied && e.Rule == `permissions.deny "note_create"`) {
				t.Errorf("deny %v: batch line %d: %+v", deny, i+1, e)
			}
		}
		if entries[2].Params["folder"] != "imp" {
			t.Errorf("the second note's folder is not in its line: %+v", entries[2].Params)
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
	sv, err := d.builder().Serve(t.Context(), root, cfg, true)
	if err != nil {
		t.Fatal(err)
	}
	defer sv.Close()
	rec := httptest.NewRecorder()
	sv.Notes.ServeHTTP(rec, httptest.NewRequest("POST", "/notes/batch", strings.NewReader(`{"notes":[{"title":"b1","content":"one"}]}`)))
	if rec.Code != http.StatusForbidden || !strings.Contains(rec.Body.String(), "TOOL_POLICY_DENIED") {
		t.Fatalf("POST /notes/batch under deny note_create: %d %s", rec.Code, rec.Body)
	}
	list := httptest.NewRecorder()
	sv.Notes.ServeHTTP(list, httptest.NewRequest("GET", "/notes", nil))
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

// TestServeOversizedBatchIsOneLine: a batch over the limit, refused
// whole, is one audit line saying how many notes it had, not thousands.
func TestServeOversizedBatchIsOneLine(t *testing.T) {
	root := t.TempDir()
	sv, err := (&factory{io: &streams{}}).builder().Serve(t.Context(), root, config.Defaults(), true)
	if err != nil {
		t.Fatal(err)
	}
	defer sv.Close()
	body := `{"notes":[` + strings.Repeat(`{"title":"a","content":"b"},`, notes.MaxBatch) + `{"title":"a","content":"b"}]}`
	rec := httptest.NewRecorder()
	sv.Notes.ServeHTTP(rec, httptest.NewRequest("POST", "/notes/batch", strings.NewReader(body)))
	entries := auditEntries(t, root)
	if rec.Code != http.StatusUnprocessableEntity || len(entries) != 1 || entries[0].Params["notes"] != fmt.Sprintf("%d notes", notes.MaxBatch+1) {
		t.Errorf("%d; audit %+v", rec.Code, entries)
	}
}
