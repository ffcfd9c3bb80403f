package serve

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
)

// serveWith starts a server whose /mcp and /notes are h.
func serveWith(t *testing.T, h http.Handler, opts Options) string {
	t.Helper()
	opts.Addr, opts.Token, opts.MCP, opts.Notes = "127.0.0.1:0", "tok", h, h
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	return s.Addr().String()
}

// TestSlowBodyIsCut sends a body a few bytes at a time and then nothing:
// the handler's read fails at the body's deadline, so the connection is
// not held.
func TestSlowBodyIsCut(t *testing.T) {
	readErr := make(chan error, 1)
	addr := serveWith(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, err := io.ReadAll(r.Body)
		readErr <- err
		w.WriteHeader(http.StatusRequestTimeout)
	}), Options{BodyTimeout: 300 * time.Millisecond})
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /notes HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer tok\r\nContent-Length: 1000\r\n\r\nxx", addr)
	for range 3 {
		time.Sleep(50 * time.Millisecond)
		conn.Write([]byte("x"))
	}
	select {
	case err := <-readErr:
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Errorf("reading the body: %v, want the deadline", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a body that never ends held the request for 10s")
	}
}

// TestLongResponsesAreNotCut streams a response for longer than the
// body's deadline, after a POST body and for a GET (an MCP event
// stream): neither is cut, and the request's context stays alive.
func TestLongResponsesAreNotCut(t *testing.T) {
	addr := serveWith(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		for i := range 8 {
			if r.Context().Err() != nil {
				return
			}
			fmt.Fprintf(w, "data: %d %s\n\n", i, body)
			http.NewResponseController(w).Flush()
			time.Sleep(100 * time.Millisecond)
		}
		fmt.Fprint(w, "data: end\n\n")
	}), Options{BodyTimeout: 200 * time.Millisecond})
	for _, method := range []string{"POST", "GET"} {
		var body io.Reader
		if method == "POST" {
			body = strings.NewReader("hello")
		}
		req, _ := http.NewRequest(method, "http://"+addr+"/mcp", body)
		req.Header.Set("Authorization", "Bearer tok")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var last string
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if sc.Text() != "" {
				last = sc.Text()
			}
		}
		resp.Body.Close()
		if last != "data: end" {
			t.Errorf("%s: the stream ended at %q (%v)", method, last, sc.Err())
		}
	}
}
