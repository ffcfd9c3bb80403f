package embedding_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentcli/agent/tools/notes/embedding"
	"github.com/agentcli/agent/tools/notes/notestest"
)

// TestWire checks what each client sends to the fake server speaking
// the provider's format: the model, the task type (a query or a
// document), the size asked for, the key.
func TestWire(t *testing.T) {
	srv := notestest.NewEmbedServer()
	defer srv.Close()
	ctx := context.Background()
	for _, c := range []struct {
		provider, base, path string
		want                 []string
	}{
		{"gemini", srv.URL, "/models/gemini-embedding-001:batchEmbedContents", []string{`"taskType":"RETRIEVAL_QUERY"`, `"outputDimensionality":96`, `"model":"models/gemini-embedding-001"`}},
		{"openai", srv.URL + "/v1", "/v1/embeddings", []string{`"model":"text-embedding-3-small"`, `"dimensions":96`, `"encoding_format":"float"`}},
	} {
		e, err := embedding.New(embedding.Options{Provider: c.provider, BaseURL: c.base, APIKey: "k-123", Dimensions: 96}, "")
		if err != nil {
			t.Fatal(err)
		}
		vecs, err := e.Embed(ctx, []string{"release steps", "deploy checklist"}, true)
		if err != nil {
			t.Fatalf("%s: %v", c.provider, err)
		}
		if len(vecs) != 2 || len(vecs[0]) != 96 {
			t.Fatalf("%s: %d vectors of %d numbers, want 2 of 96", c.provider, len(vecs), len(vecs[0]))
		}
		last := srv.Last()
		if !strings.HasSuffix(last.Path, c.path) || !strings.Contains(last.Auth, "k-123") {
			t.Errorf("%s: request to %s with key %q, want %s with the key", c.provider, last.Path, last.Auth, c.path)
		}
		for _, w := range c.want {
			if !strings.Contains(string(last.Body), w) {
				t.Errorf("%s: body %s lacks %s", c.provider, last.Body, w)
			}
		}
		if !strings.HasSuffix(e.Model(), "@96") {
			t.Errorf("%s: Model() = %s, want the size in the name", c.provider, e.Model())
		}
	}
	// Documents are embedded as documents.
	e, _ := embedding.New(embedding.Options{Provider: "gemini", BaseURL: srv.URL}, "")
	if _, err := e.Embed(ctx, []string{"a note"}, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(srv.Last().Body), `"taskType":"RETRIEVAL_DOCUMENT"`) {
		t.Errorf("document body %s", srv.Last().Body)
	}
}

// TestBatches: more texts than one request takes go in several.
func TestBatches(t *testing.T) {
	srv := notestest.NewEmbedServer()
	defer srv.Close()
	e, _ := embedding.New(embedding.Options{Provider: "gemini", BaseURL: srv.URL}, "")
	texts := make([]string, 250)
	for i := range texts {
		texts[i] = "text"
	}
	vecs, err := e.Embed(context.Background(), texts, false)
	if err != nil || len(vecs) != 250 || srv.Requests() != 3 {
		t.Errorf("250 texts: %d vectors, %v, %d requests; want 250 in 3 requests", len(vecs), err, srv.Requests())
	}
}

func TestKeyNeededOffThisMachine(t *testing.T) {
	for _, c := range []struct {
		base string
		ok   bool
	}{
		{"", false},
		{"https://api.example.com/v1", false},
		{"http://localhost:11434/v1", true},
		{"http://127.0.0.1:8080", true},
		{"http://[::1]:8080", true},
	} {
		_, err := embedding.New(embedding.Options{Provider: "openai", BaseURL: c.base}, "OPENAI_API_KEY")
		if (err == nil) != c.ok || (err != nil && (!errors.Is(err, embedding.ErrNoKey) || !strings.Contains(err.Error(), "OPENAI_API_KEY"))) {
			t.Errorf("New(no key, %q) = %v, want ok %v (else ErrNoKey naming the variable)", c.base, err, c.ok)
		}
	}
	if _, err := embedding.New(embedding.Options{Provider: "cohere", APIKey: "k"}, ""); err == nil {
		t.Error("an unknown provider was accepted")
	}
}

// TestOpenAIRetries: a server error is tried again, as the server's
// Retry-After-Ms asks, three times in all; the error then says the
// server's words.
func TestOpenAIRetries(t *testing.T) {
	srv := notestest.NewEmbedServer()
	defer srv.Close()
	srv.SetFail(true)
	e, _ := embedding.New(embedding.Options{Provider: "openai", BaseURL: srv.URL + "/v1"}, "")
	_, err := e.Embed(context.Background(), []string{"a"}, false)
	if err == nil || !strings.Contains(err.Error(), "HTTP 500") || !strings.Contains(err.Error(), "the embedding model is unavailable (after 3 attempts)") {
		t.Errorf("err = %v, want the server's words after 3 attempts", err)
	}
	if n := srv.Requests(); n != 3 {
		t.Errorf("%d requests, want 3", n)
	}
}

// TestOpenAIRefusedKey: a refused key is not tried again, and an answer
// that echoes the key does not show it.
func TestOpenAIRefusedKey(t *testing.T) {
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprintf(w, `{"error":{"message":"Incorrect API key provided: %s","type":"invalid_request_error","code":"invalid_api_key"}}`,
			strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
	}))
	defer srv.Close()
	e, _ := embedding.New(embedding.Options{Provider: "openai", BaseURL: srv.URL + "/v1", APIKey: "sk-embed-secret"}, "")
	_, err := e.Embed(context.Background(), []string{"a"}, false)
	if err == nil || !strings.Contains(err.Error(), "HTTP 401") || strings.Contains(err.Error(), "sk-embed-secret") || !strings.Contains(err.Error(), "[redacted]") {
		t.Errorf("err = %v, want a 401 with the key redacted", err)
	}
	if n := requests.Load(); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}
