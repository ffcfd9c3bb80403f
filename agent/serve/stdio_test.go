package serve

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// stdioSession runs an MCP server over the stdio transport on pipes and
// returns a function sending one line and one reading the next answer.
func stdioSession(t *testing.T, maxLine int) (send func(string), next func() map[string]any) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	srv := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "ping", Description: "answers pong"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "pong"}}}, nil, nil
	})
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, stdioTransport(inR, outW, maxLine)) }()
	t.Cleanup(func() {
		cancel()
		inW.Close()
		outR.Close()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Error("the server did not stop")
		}
	})
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	send = func(s string) {
		t.Helper()
		if _, err := io.WriteString(inW, s+"\n"); err != nil {
			t.Fatalf("send %q: %v", s, err)
		}
	}
	next = func() map[string]any {
		t.Helper()
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatal("the server closed its output: the session ended")
			}
			var m map[string]any
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				t.Fatalf("answer %q is not JSON: %v", l, err)
			}
			return m
		case err := <-done:
			t.Fatalf("the server stopped: %v", err)
		case <-time.After(5 * time.Second):
			t.Fatal("no answer within 5s")
		}
		return nil
	}
	return send, next
}

func errCode(m map[string]any) float64 {
	e, _ := m["error"].(map[string]any)
	c, _ := e["code"].(float64)
	return c
}

func TestStdioAnswersBadLinesAndKeepsServing(t *testing.T) {
	send, next := stdioSession(t, MaxStdioLine)
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if m := next(); m["result"] == nil {
		t.Fatalf("initialize = %v, want a result", m)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	cases := []struct {
		line string
		code float64
		id   any
	}{
		{"this is not json", -32700, nil},
		{`{"jsonrpc":"2.0","id":3,"method":`, -32700, nil},
		{"[]", -32600, nil},
		{`[{"jsonrpc":"2.0","id":4,"method":"tools/list"}]`, -32600, nil},
		{`{"id":"x","method":"tools/list"}`, -32600, "x"},
		{`42`, -32600, nil},
	}
	for _, c := range cases {
		send(c.line)
		m := next()
		if got := errCode(m); got != c.code {
			t.Errorf("%q: answer %v, want error code %v", c.line, m, c.code)
		}
		if id, ok := m["id"]; !ok || id != c.id {
			t.Errorf("%q: answer id %v (present %v), want %v", c.line, id, ok, c.id)
		}
	}
	send("") // a blank line is no message and gets no answer
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ping","arguments":{}}}`)
	m := next()
	if m["id"] != float64(2) || !strings.Contains(m["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"].(string), "pong") {
		t.Fatalf("tools/call after the bad lines = %v, want pong", m)
	}
}

func TestStdioLongLine(t *testing.T) {
	send, next := stdioSession(t, 200)
	send(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", 300<<10) + `"}}`)
	if m := next(); errCode(m) != -32600 || !strings.Contains(m["error"].(map[string]any)["message"].(string), "longer than") {
		t.Fatalf("long line: answer %v, want -32600 naming the length", m)
	}
	send(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	if m := next(); m["id"] != float64(2) || m["error"] != nil {
		t.Fatalf("ping after a long line = %v, want a result", m)
	}
}

// TestStdioAnswersBeforeEOF: a client that writes its requests and closes
// its end gets every answer, slow calls included, before the server ends.
func TestStdioAnswersBeforeEOF(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "slow", Description: "answers late"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		time.Sleep(200 * time.Millisecond)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "late"}}}, nil, nil
	})
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{}}}
not JSON: answered by the transport, not owed by the server
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"slow","arguments":{}}}
`)
	var out strings.Builder
	done := make(chan error, 1)
	go func() { done <- srv.Run(t.Context(), StdioTransport(in, &syncWriter{w: &out})) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not end after its input did")
	}
	for _, id := range []string{`"id":2,"result"`, `"id":3,"result"`} {
		if !strings.Contains(out.String(), id) || strings.Count(out.String(), "late") != 2 {
			t.Errorf("output %s\nwant the answer %s", out.String(), id)
		}
	}
}

// syncWriter lets the test read what the server wrote from its goroutine.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// TestStdioDuplicateIDs: a client that sends one id twice and closes its
// end is answered and the server ends, not waiting for a second answer
// the SDK never gives.
func TestStdioDuplicateIDs(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":5,"method":"ping"}
{"jsonrpc":"2.0","id":5.0,"method":"ping"}
`)
	var out strings.Builder
	done := make(chan error, 1)
	go func() { done <- srv.Run(t.Context(), StdioTransport(in, &syncWriter{w: &out})) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the server waits for an answer it will never give")
	}
	if !strings.Contains(out.String(), `"id":5,"result"`) {
		t.Errorf("output %s, want the ping answered", out.String())
	}
}
