package mcptool

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/fsedit"
	"github.com/agentcli/agent/tools/sandbox"
)

// testRegistry is the file tools on a temporary project holding a.txt,
// plus a stand-in run_command, which says of itself (as the real one
// does) that it is never served.
func testRegistry(t testing.TB) (*tools.Registry, string) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("alpha\nbeta\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	reg := tools.NewRegistry(fsedit.NewTools(sandbox.NewRoot(dir, sandbox.Options{}))...)
	type cmdArgs struct {
		Command string `json:"command"`
	}
	reg.Add(tools.New("run_command", "Runs a command.", func(context.Context, cmdArgs) (tools.Result, error) {
		t.Error("run_command must never be served")
		return tools.Result{}, nil
	}, tools.Writes(), tools.NotServed()))
	return reg, dir
}

// connectInMemory connects a go-sdk client to srv.
func connectInMemory(t testing.TB, srv *mcp.Server) *mcp.ClientSession {
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

func listed(t *testing.T, cs *mcp.ClientSession) map[string]*mcp.Tool {
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]*mcp.Tool{}
	for _, tl := range res.Tools {
		m[tl.Name] = tl
	}
	return m
}

func text(r *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func TestServeReadOnlyByDefault(t *testing.T) {
	reg, _ := testRegistry(t)
	cs := connectInMemory(t, NewServer(reg, ServeOptions{}))
	ts := listed(t, cs)
	if ts["write_file"] != nil || ts["run_command"] != nil {
		t.Fatalf("served without --allow-writes: %v", keys(ts))
	}
	rf := ts["read_file"]
	if rf == nil || rf.Annotations == nil || !rf.Annotations.ReadOnlyHint || strings.Contains(rf.Description, "\n") {
		t.Fatalf("read_file = %+v", rf)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "read_file", Arguments: map[string]any{"file_path": "a.txt", "start_line": 2}})
	if err != nil || res.IsError || !strings.Contains(text(res), "beta") || strings.Contains(text(res), "alpha") {
		t.Fatalf("read_file = %q, %v", text(res), err)
	}
	res, _ = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "read_file", Arguments: map[string]any{"file_path": "../etc/passwd"}})
	if !res.IsError || !strings.HasPrefix(text(res), tools.CodePathOutsideRoot) {
		t.Errorf("outside the root: %q", text(res))
	}
	res, _ = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "read_file", Arguments: map[string]any{"nope": 1}})
	if !res.IsError || !strings.HasPrefix(text(res), tools.CodeSchemaInvalid) {
		t.Errorf("bad arguments: %q", text(res))
	}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "write_file"}); err == nil {
		t.Error("calling a tool that is not served must fail")
	}
}

func keys(m map[string]*mcp.Tool) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}

func TestServeWritesWhenAllowed(t *testing.T) {
	reg, dir := testRegistry(t)
	var seen []string
	cs := connectInMemory(t, NewServer(reg, ServeOptions{AllowWrites: true, Session: "serve-test",
		Observe: func(c ServedCall) {
			seen = append(seen, c.Info.SessionID+" "+c.Name+" "+c.Result.Code)
		}}))
	ts := listed(t, cs)
	wf := ts["write_file"]
	if wf == nil || wf.Annotations.ReadOnlyHint || wf.Annotations.DestructiveHint == nil || !*wf.Annotations.DestructiveHint {
		t.Fatalf("write_file = %+v", wf)
	}
	if ts["run_command"] != nil {
		t.Fatal("run_command is never served")
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "write_file", Arguments: map[string]any{
		"operation_type": "create", "file_path": "b.txt", "content": "new\n"}})
	if err != nil || res.IsError {
		t.Fatalf("write_file = %q, %v", text(res), err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "b.txt")); string(b) != "new\n" {
		t.Fatalf("b.txt = %q", b)
	}
	if len(seen) != 1 || seen[0] != "serve-test write_file " {
		t.Errorf("observed %q", seen)
	}
}

// TestServeGuard lets the guard refuse a write before it runs, with the
// rule reaching the observer; reads are never put to it.
func TestServeGuard(t *testing.T) {
	reg, dir := testRegistry(t)
	var seen []ServedCall
	var guarded []string
	cs := connectInMemory(t, NewServer(reg, ServeOptions{AllowWrites: true,
		Guard: func(def tools.Definition, in tools.Input) (*tools.Result, string) {
			guarded = append(guarded, def.Name)
			if p, _ := in.Values["file_path"].(string); p == "denied.txt" {
				res := tools.Errorf(tools.CodePolicyDenied, "write_file was not run: refused")
				return &res, "permissions.deny \"denied.txt\""
			}
			return nil, ""
		},
		Observe: func(c ServedCall) { seen = append(seen, c) }}))
	for _, p := range []string{"denied.txt", "ok.txt"} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "write_file", Arguments: map[string]any{
			"operation_type": "create", "file_path": p, "content": "x"}})
		if err != nil {
			t.Fatal(err)
		}
		if refused := p == "denied.txt"; res.IsError != refused {
			t.Errorf("%s: isError = %v (%q)", p, res.IsError, text(res))
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "denied.txt")); err == nil {
		t.Error("the refused write ran")
	}
	if _, err := os.Stat(filepath.Join(dir, "ok.txt")); err != nil {
		t.Error("the allowed write did not run")
	}
	if len(seen) != 2 || seen[0].Rule != `permissions.deny "denied.txt"` || seen[0].Result.Code != tools.CodePolicyDenied || seen[1].Rule != "" {
		t.Errorf("observed %+v", seen)
	}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "read_file", Arguments: map[string]any{"file_path": "ok.txt"}}); err != nil {
		t.Fatal(err)
	}
	if len(guarded) != 2 {
		t.Errorf("guard saw %q; reads are not its business", guarded)
	}
}

// TestServeLean keeps the tool list small: one-line descriptions and the
// schemas.
func TestServeLean(t *testing.T) {
	reg, _ := testRegistry(t)
	cs := connectInMemory(t, NewServer(reg, ServeOptions{AllowWrites: true}))
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res)
	if len(b) > 8<<10 {
		t.Errorf("tools/list is %d bytes for %d tools; keep it under 8 KB", len(b), len(res.Tools))
	}
	t.Logf("tools/list: %d bytes, %d tools", len(b), len(res.Tools))
}

// TestRoundTrip imports our own server, over Streamable HTTP, as an MCP
// server: both directions through the real protocol.
func TestRoundTrip(t *testing.T) {
	reg, _ := testRegistry(t)
	hs := httptest.NewServer(HTTPHandler(NewServer(reg, ServeOptions{})))
	defer hs.Close()
	reg2, servers := importFake(t, Options{Timeout: 5 * time.Second}, Spec{Name: "self", URL: hs.URL})
	if s := servers[0]; s.Err != nil {
		t.Fatal(s.Err)
	}
	res := call(t, reg2, "mcp__self__read_file", map[string]string{"file_path": "a.txt", "end_line": "1"})
	if res.IsError() || !strings.Contains(res.Content, "alpha") || strings.Contains(res.Content, "beta") {
		t.Fatalf("read through two hops: %+v", res)
	}
	if _, ok := reg2.Lookup("mcp__self__write_file"); ok {
		t.Error("write_file imported from a read-only server")
	}
}

// TestImportGoSDKServer imports a server written with the SDK's typed
// AddTool, over Streamable HTTP with a header the server checks.
func TestImportGoSDKServer(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "sdk"}, nil)
	type in struct {
		N     int      `json:"n" jsonschema:"how many"`
		Words []string `json:"words,omitempty"`
	}
	mcp.AddTool(srv, &mcp.Tool{Name: "repeat", Description: "Repeats words.\nSecond line."}, func(_ context.Context, _ *mcp.CallToolRequest, a in) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat(strings.Join(a.Words, " ")+";", a.N)}}}, nil, nil
	})
	h := HTTPHandler(srv)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Token") != "t0k" {
			w.WriteHeader(401)
			return
		}
		h.ServeHTTP(w, r)
	}))
	defer hs.Close()
	reg, servers := importFake(t, Options{Timeout: 5 * time.Second},
		Spec{Name: "sdk", URL: hs.URL, Headers: map[string]string{"X-Token": "t0k"}},
		Spec{Name: "nokey", URL: hs.URL})
	if byName(servers, "sdk").Err != nil || byName(servers, "nokey").Err == nil {
		t.Fatalf("outcomes: %+v", servers)
	}
	tl, _ := reg.Lookup("mcp__sdk__repeat")
	if d := tl.Definition(); d.Description != "(MCP server sdk) Repeats words. Second line." || d.Params[0].Name != "n" || d.Params[0].Kind != tools.Integer {
		t.Errorf("definition = %+v", d)
	}
	res := call(t, reg, "mcp__sdk__repeat", map[string]string{"n": "2", "words": `["a","b"]`})
	if res.Content != "a b;a b;" {
		t.Errorf("repeat = %+v", res)
	}
}
