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

// TestUnauthenticatedSlowBodyIsCut: a client without the token that
// trickles a body gets its 401 at once, from the headers alone, and its
// connection is closed then, not held while the rest of the body comes.
func TestUnauthenticatedSlowBodyIsCut(t *testing.T) {
	addr := serveWith(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Error("the handler ran for a request without the token")
	}), Options{BodyTimeout: 5 * time.Second})
	for _, auth := range []string{"", "Authorization: Bearer wrong\r\n"} {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		fmt.Fprintf(conn, "POST /notes HTTP/1.1\r\nHost: %s\r\n%sContent-Length: 100000\r\n\r\nx", addr, auth)
		start := time.Now()
		conn.SetReadDeadline(time.Now().Add(3 * time.Second))
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("no answer before the body ended: %v", err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("status %d, want 401", resp.StatusCode)
		}
		// Keep trickling: the server must close the connection anyway.
		closed := false
		for range 20 {
			time.Sleep(50 * time.Millisecond)
			if _, err := conn.Write([]byte("x")); err != nil {
				closed = true
				break
			}
			conn.SetReadDeadline(time.Now().Add(10 * time.Millisecond))
			if _, err := conn.Read(make([]byte, 1)); err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
				closed = true
				break
			}
		}
		if !closed {
			t.Errorf("the connection of a refused request is held %v after its 401", time.Since(start).Round(time.Millisecond))
		}
	}
}

// TestConnectionLimit: connections beyond MaxConns wait for a slot rather
// than each taking a file descriptor and a goroutine; a slot frees when
// a connection ends.
func TestConnectionLimit(t *testing.T) {
	addr := serveWith(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}), Options{MaxConns: 2, ReadHeaderTimeout: 5 * time.Second})
	var held []net.Conn
	for range 2 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
		c.Write([]byte("GET /mcp HTTP/1.1\r\n")) // headers never end
	}
	third, err := net.Dial("tcp", addr) // the kernel accepts; the server does not serve it yet
	if err != nil {
		t.Fatal(err)
	}
	defer third.Close()
	fmt.Fprintf(third, "GET /mcp HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer tok\r\n\r\n", addr)
	third.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
	if _, err := third.Read(make([]byte, 1)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("a third connection was served beyond MaxConns 2: %v", err)
	}
	held[0].Close()
	third.SetReadDeadline(time.Now().Add(3 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(third), nil)
	if err != nil {
		t.Fatalf("the third connection was not served once a slot freed: %v", err)
	}
	resp.Body.Close()
	held[1].Close()
}
