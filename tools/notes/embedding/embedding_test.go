package embedding_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/agentcli/agent/tools/notes/embedding"
	"github.com/agentcli/agent/tools/notes/notestest"
)

// TestWire checks what each client sends, through its SDK, to the fake
// server speaking the provider's format: the model, the task type (a
// query or a document), the size asked for, the key.
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
