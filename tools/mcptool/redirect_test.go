package mcptool

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// TestHeadersStayWithTheirOrigin connects to a server that redirects
// every request to another port of 127.0.0.1: the configured headers
// reach the first server and never the second.
func TestHeadersStayWithTheirOrigin(t *testing.T) {
	reg, _ := testRegistry(t)
	var mu sync.Mutex
	var leaked, sent []string
	h := HTTPHandler(NewServer(reg, ServeOptions{}))
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		for _, k := range []string{"Authorization", "X-Api-Key"} {
			if v := r.Header.Get(k); v != "" {
				leaked = append(leaked, k+": "+v)
			}
		}
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	defer other.Close()
	first := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		sent = append(sent, r.Header.Get("Authorization"))
		mu.Unlock()
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer first.Close()

	_, servers := importFake(t, Options{Timeout: 5 * time.Second}, Spec{Name: "moved", URL: first.URL + "/mcp",
		Headers: map[string]string{"Authorization": "Bearer s3cret", "X-Api-Key": "k3y"}})
	if servers[0].Err != nil {
		t.Fatalf("connect through the redirect: %v", servers[0].Err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(sent) == 0 || sent[0] != "Bearer s3cret" {
		t.Errorf("the configured server got Authorization %q", sent)
	}
	if len(leaked) > 0 {
		t.Errorf("the server redirected to got %q", leaked)
	}
}
