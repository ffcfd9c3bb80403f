package serve

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// echo answers with the path and the size of the body it read; a body
// over the limit gets 413, as a real handler's decoder would report.
var echo = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	b, err := io.ReadAll(r.Body)
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		http.Error(w, "too large", http.StatusRequestEntityTooLarge)
		return
	}
	fmt.Fprintf(w, "%s %d", r.URL.Path, len(b))
})

// start serves opts on 127.0.0.1 and returns the base URL and a stop
// function that drains and reports Serve's error.
func start(t *testing.T, opts Options) (string, func() error) {
	t.Helper()
	if opts.Addr == "" {
		opts.Addr = "127.0.0.1:0"
	}
	if opts.MCP == nil {
		opts.MCP = echo
	}
	if opts.Notes == nil {
		opts.Notes = echo
	}
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- s.Serve(ctx) }()
	var once sync.Once
	var serr error
	stop := func() error {
		once.Do(func() { cancel(); serr = <-errc })
		return serr
	}
	t.Cleanup(func() { _ = stop() })
	return "http://" + s.Addr().String(), stop
}

func do(t *testing.T, method, url, token string, body io.Reader, hdr ...string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, url, body)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i] == "Host" {
			req.Host = hdr[i+1]
		} else {
			req.Header.Set(hdr[i], hdr[i+1])
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestNewRefusesUnsafeSetups(t *testing.T) {
	for _, o := range []Options{
		{Addr: "127.0.0.1:0"},             // no token
		{Addr: "0.0.0.0:0", NoAuth: true}, // no auth beyond loopback
		{Addr: "127.0.0.1:0", Token: "x", NoAuth: true},
		{Addr: "nonsense"},
	} {
		if s, err := New(o); err == nil {
			s.ln.Close()
			t.Errorf("New(%+v) accepted", o)
		}
	}
	_, err := New(Options{Addr: "127.0.0.1:0"})
	if !errors.Is(err, ErrNoToken) {
		t.Errorf("no token: %v", err)
	}
}

func TestAuth(t *testing.T) {
	base, _ := start(t, Options{Token: "s3cret-token"})
	for _, tc := range []struct {
		path, token string
		want        int
	}{
		{"/mcp", "", 401},
		{"/mcp", "wrong", 401},
		{"/mcp", "s3cret-token-longer", 401},
		{"/mcp", "s3cret-token", 200},
		{"/notes", "s3cret-token", 200},
		{"/notes/12", "s3cret-token", 200},
		{"/notes/12", "", 401},
		{"/other", "s3cret-token", 404},
	} {
		if code, body := do(t, "GET", base+tc.path, tc.token, nil); code != tc.want {
			t.Errorf("GET %s token %q = %d %q, want %d", tc.path, tc.token, code, body, tc.want)
		}
	}
	req, _ := http.NewRequest("GET", base+"/mcp", nil)
	req.Header.Set("Authorization", "Basic czNjcmV0LXRva2Vu")
	if resp, _ := http.DefaultClient.Do(req); resp.StatusCode != 401 || resp.Header.Get("WWW-Authenticate") == "" {
		t.Errorf("basic auth: %d", resp.StatusCode)
	}
}

// TestWrongTokens sends 1,000 requests with wrong tokens at once: every
// one is refused.
func TestWrongTokens(t *testing.T) {
	base, _ := start(t, Options{Token: "the-right-token"})
	var wg sync.WaitGroup
	var mu sync.Mutex
	codes := map[int]int{}
	sem := make(chan struct{}, 32)
	for i := range 1000 {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			req, _ := http.NewRequest("POST", base+"/mcp", strings.NewReader("{}"))
			req.Header.Set("Authorization", fmt.Sprintf("Bearer the-right-token%d", i))
			resp, err := http.DefaultClient.Do(req)
			code := -1
			if err == nil {
				code = resp.StatusCode
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
			mu.Lock()
			codes[code]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if codes[401] != 1000 {
		t.Fatalf("status counts %v, want 1000 × 401", codes)
	}
}

func TestHostAndOrigin(t *testing.T) {
	for _, noAuth := range []bool{false, true} {
		opts := Options{Token: "tok"}
		if noAuth {
			opts = Options{NoAuth: true}
		}
		base, _ := start(t, opts)
		port := base[strings.LastIndex(base, ":")+1:]
		for _, tc := range []struct {
			hdr  []string
			want int
		}{
			{nil, 200},
			{[]string{"Host", "localhost:" + port}, 200},
			{[]string{"Host", "evil.example:" + port}, 403},
			{[]string{"Host", "127.0.0.1:1"}, 403},
			{[]string{"Host", "127.0.0.1"}, 403},
			{[]string{"Origin", "http://127.0.0.1:" + port}, 200},
			{[]string{"Origin", "http://localhost:" + port}, 200},
			{[]string{"Origin", "http://evil.example:" + port}, 403},
			{[]string{"Origin", "null"}, 403},
			{[]string{"Origin", "http://127.0.0.1"}, 403},
		} {
			if code, _ := do(t, "GET", base+"/mcp", opts.Token, nil, tc.hdr...); code != tc.want {
				t.Errorf("noAuth %v, %v = %d, want %d", noAuth, tc.hdr, code, tc.want)
			}
		}
	}
}

func TestBodyLimit(t *testing.T) {
	base, _ := start(t, Options{Token: "tok", MaxBody: 1 << 20})
	if code, body := do(t, "POST", base+"/notes", "tok", strings.NewReader(strings.Repeat("x", 1<<20))); code != 200 || body != "/notes 1048576" {
		t.Errorf("1 MiB body: %d %q", code, body)
	}
	if code, _ := do(t, "POST", base+"/notes", "tok", strings.NewReader(strings.Repeat("x", 10<<20))); code != 413 {
		t.Errorf("10 MB body: %d, want 413", code)
	}
}

func TestHeaderReadTimeout(t *testing.T) {
	base, _ := start(t, Options{Token: "tok", ReadHeaderTimeout: 200 * time.Millisecond})
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n") // never finished
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	start := time.Now()
	_, err = bufio.NewReader(conn).ReadString('\n')
	if took := time.Since(start); took > 3*time.Second {
		t.Fatalf("a slow client held the connection for %s (%v)", took, err)
	}
}

// TestDrain stops the server while a request runs: nothing new is
// accepted, and the request in flight finishes. The handler holds the
// request until the server refuses new connections, so the order is
// certain whatever the machine's load.
func TestDrain(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	held := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		<-release
		fmt.Fprint(w, "done")
	})
	base, stop := start(t, Options{Token: "tok", Notes: held})
	done := make(chan int, 1)
	go func() {
		code, _ := do(t, "GET", base+"/notes", "tok", nil)
		done <- code
	}()
	<-started
	stopped := make(chan error, 1)
	go func() { stopped <- stop() }()
	fresh := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: time.Second}
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, err := fresh.Get(base + "/mcp")
		if err != nil {
			break // refused: the server drains
		}
		resp.Body.Close()
		if time.Now().After(deadline) {
			t.Fatal("the server still accepts new requests after Serve's context ended")
		}
		time.Sleep(10 * time.Millisecond)
	}
	close(release)
	if code := <-done; code != 200 {
		t.Fatalf("the request in flight got %d", code)
	}
	if err := <-stopped; err != nil {
		t.Fatalf("Serve: %v", err)
	}
}
