package notes_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentcli/agent/tools/notes"
)

func newServer(t *testing.T, o notes.HandlerOptions) *httptest.Server {
	t.Helper()
	s := openTemp(t)
	mux := http.NewServeMux()
	h := notes.NewHandler(s, o)
	mux.Handle("/notes", h)
	mux.Handle("/notes/", h)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// do sends one request and decodes the JSON answer.
func do(t *testing.T, srv *httptest.Server, method, path, body string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("%s %s: answer %q is not a JSON object", method, path, data)
	}
	return resp.StatusCode, v
}

func errCode(v map[string]any) string {
	e, _ := v["error"].(map[string]any)
	s, _ := e["code"].(string)
	return s
}

func TestRESTEndpoints(t *testing.T) {
	srv := newServer(t, notes.HandlerOptions{})
	st, v := do(t, srv, "POST", "/notes", `{"title":"Plan","content":"ship the search","folder":"work//q3","tags":"b,a"}`)
	if st != 201 || v["id"] != 1.0 || v["folder"] != "/work/q3/" {
		t.Fatalf("POST /notes = %d %v", st, v)
	}
	created := v["created_at"]
	do(t, srv, "POST", "/notes", `{"title":"Other","content":"unrelated text","tags":["x"]}`)
	if st, v := do(t, srv, "GET", "/notes/1", ""); st != 200 || v["content"] != "ship the search" {
		t.Errorf("GET /notes/1 = %d %v", st, v)
	}
	if st, v := do(t, srv, "GET", "/notes?folder=work&limit=5", ""); st != 200 || v["total"] != 1.0 {
		t.Errorf("GET /notes?folder=work = %d %v", st, v)
	}
	if st, v := do(t, srv, "GET", "/notes?tag=x&offset=0", ""); st != 200 || v["total"] != 1.0 {
		t.Errorf("GET /notes?tag=x = %d %v", st, v)
	}
	st, v = do(t, srv, "GET", "/notes/search?q=search", "")
	hits, _ := v["hits"].([]any)
	if st != 200 || len(hits) != 1 || !strings.Contains(hits[0].(map[string]any)["excerpt"].(string), "**search**") {
		t.Errorf("GET /notes/search = %d %v", st, v)
	}
	st, v = do(t, srv, "GET", "/notes?q=search&folder=work", "")
	if hits, _ := v["hits"].([]any); st != 200 || len(hits) != 1 || v["mode"] != "text" {
		t.Errorf("GET /notes?q=search = %d %v, want the search's one hit", st, v)
	}
	if st, v := do(t, srv, "GET", "/notes?q=well-known", ""); st != 200 || v["fallback"] != nil {
		t.Errorf("GET /notes?q=well-known = %d %v, want no fallback", st, v)
	}
	if st, v := do(t, srv, "GET", "/notes/search?q=%22unbalanced", ""); st != 200 || v["fallback"] == nil {
		t.Errorf("search with bad syntax = %d %v, want a fallback", st, v)
	}
	if st, v := do(t, srv, "GET", "/notes/folders", ""); st != 200 || len(v["folders"].([]any)) != 2 {
		t.Errorf("GET /notes/folders = %d %v", st, v)
	}
	if st, v := do(t, srv, "GET", "/notes/tags", ""); st != 200 || len(v["tags"].([]any)) != 3 {
		t.Errorf("GET /notes/tags = %d %v", st, v)
	}
	if st, v := do(t, srv, "PUT", "/notes/1", `{"content":"and test it","mode":"append"}`); st != 200 || v["content"] != "ship the search\nand test it" {
		t.Errorf("PUT append = %d %v", st, v)
	}
	st, v = do(t, srv, "PATCH", "/notes/1", `{"text":"Updated note content"}`)
	if st != 200 || v["content"] != "Updated note content" || v["created_at"] != created || v["id"] != 1.0 || len(v["tags"].([]any)) != 2 {
		t.Errorf("PATCH = %d %v, want identity and tags kept", st, v)
	}
	if st, v := do(t, srv, "PATCH", "/notes/1", `{"tags":[]}`); st != 200 || len(v["tags"].([]any)) != 0 {
		t.Errorf("PATCH tags [] = %d %v", st, v)
	}
	if st, v := do(t, srv, "DELETE", "/notes/2", ""); st != 200 || v["deleted"].(map[string]any)["title"] != "Other" {
		t.Errorf("DELETE = %d %v", st, v)
	}
	st, v = do(t, srv, "POST", "/notes/batch", `{"notes":[{"title":"b1","content":"bulk one","tags":"x"},{"title":"b2","content":"bulk two","folder":"imp"}]}`)
	if ids, _ := v["ids"].([]any); st != 201 || len(ids) != 2 || v["created"] != 2.0 {
		t.Fatalf("POST /notes/batch = %d %v", st, v)
	}
	if st, v := do(t, srv, "GET", "/notes?q=bulk", ""); st != 200 || len(v["hits"].([]any)) != 2 {
		t.Errorf("the batch's notes are not found: %d %v", st, v)
	}
}

func TestRESTErrors(t *testing.T) {
	srv := newServer(t, notes.HandlerOptions{MaxBody: 1 << 20})
	do(t, srv, "POST", "/notes", `{"title":"t","content":"c"}`)
	big := `{"title":"t","content":"` + strings.Repeat("x", 10<<20) + `"}`
	for _, c := range []struct {
		method, path, body string
		status             int
		code               string
	}{
		{"GET", "/notes/99", "", 404, notes.CodeNotFound},
		{"GET", "/notes/abc", "", 400, notes.CodeBadID},
		{"PUT", "/notes/0", `{"content":"x"}`, 400, notes.CodeBadID},
		{"DELETE", "/notes/-3", "", 400, notes.CodeBadID},
		{"GET", "/notes/search?q=x&mode=sideways", "", 422, "TOOL_SCHEMA_INVALID"},
		{"GET", "/notes/search?q=x&mode=meaning", "", 422, "TOOL_SCHEMA_INVALID"},
		{"GET", "/notes/search?q=x&all_spaces=maybe", "", 422, "TOOL_SCHEMA_INVALID"},
		{"POST", "/notes/batch", `{"notes":[]}`, 422, "TOOL_SCHEMA_INVALID"},
		{"POST", "/notes/batch", `{"notes":[{"title":"ok"},{"title":" "}]}`, 422, "TOOL_SCHEMA_INVALID"},
		{"POST", "/notes/batch", `[{"title":"ok"}]`, 422, "TOOL_SCHEMA_INVALID"},
		{"PUT", "/notes/99", `{"content":"x"}`, 404, notes.CodeNotFound},
		{"PATCH", "/notes/99", `{"text":"x"}`, 404, notes.CodeNotFound},
		{"DELETE", "/notes/99", "", 404, notes.CodeNotFound},
		{"POST", "/notes", `not json`, 400, notes.CodeBadJSON},
		{"POST", "/notes", `{"title":"t"`, 400, notes.CodeBadJSON},
		{"POST", "/notes", `{"title":"t"} {"title":"u"}`, 400, notes.CodeBadJSON},
		{"POST", "/notes", `["t"]`, 422, "TOOL_SCHEMA_INVALID"},
		{"POST", "/notes", `{"title":"t","colour":"red"}`, 422, "TOOL_SCHEMA_INVALID"},
		{"POST", "/notes", `{"title":7}`, 422, "TOOL_SCHEMA_INVALID"},
		{"POST", "/notes", `{"title":"t","tags":5}`, 422, "TOOL_SCHEMA_INVALID"},
		{"POST", "/notes", `{"content":"no title"}`, 422, "TOOL_SCHEMA_INVALID"},
		{"POST", "/notes", `{"title":"t","folder":"a/../b"}`, 422, "TOOL_SCHEMA_INVALID"},
		{"POST", "/notes", big, 413, notes.CodeTooLarge},
		{"PUT", "/notes/1", `{"title":"only"}`, 422, "TOOL_SCHEMA_INVALID"},
		{"PUT", "/notes/1", `{"content":"x","mode":"sideways"}`, 422, "TOOL_SCHEMA_INVALID"},
		{"PATCH", "/notes/1", `{}`, 422, "TOOL_SCHEMA_INVALID"},
		{"PATCH", "/notes/1", `{"text":"a","content":"b"}`, 422, "TOOL_SCHEMA_INVALID"},
		{"GET", "/notes/search", "", 422, "TOOL_SCHEMA_INVALID"},
		{"GET", "/notes?limit=-1", "", 422, "TOOL_SCHEMA_INVALID"},
		{"GET", "/notes/search?q=x&limit=many", "", 422, "TOOL_SCHEMA_INVALID"},
	} {
		st, v := do(t, srv, c.method, c.path, c.body)
		if st != c.status || errCode(v) != c.code {
			t.Errorf("%s %s %.40s = %d %v, want %d %s", c.method, c.path, c.body, st, v, c.status, c.code)
		}
	}
	if st, v := do(t, srv, "GET", "/notes/1", ""); st != 200 || v["content"] != "c" {
		t.Errorf("after the refused requests note 1 = %d %v, want unchanged", st, v)
	}
}

func TestRESTReadOnly(t *testing.T) {
	srv := newServer(t, notes.HandlerOptions{ReadOnly: true})
	for _, m := range []string{"POST /notes", "POST /notes/batch", "PUT /notes/1", "PATCH /notes/1", "DELETE /notes/1"} {
		method, path, _ := strings.Cut(m, " ")
		if st, v := do(t, srv, method, path, `{"title":"t","content":"x"}`); st != 403 || errCode(v) != notes.CodeWritesDisabled {
			t.Errorf("read-only %s = %d %v, want 403", m, st, v)
		}
	}
	if st, _ := do(t, srv, "GET", "/notes", ""); st != 200 {
		t.Errorf("read-only GET /notes = %d", st)
	}
}
