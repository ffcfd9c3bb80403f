package notestest

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"hash/fnv"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
)

// concepts are groups of words the fake embedder maps onto one number of
// the vector, so that texts with different words and one meaning lie
// together: "release steps" and "deploy checklist" get the same vector.
var concepts = [][]string{
	{"release", "releases", "deploy", "deploys", "deployment", "ship", "shipping", "rollout", "launch"},
	{"step", "steps", "checklist", "procedure", "runbook", "playbook"},
	{"cache", "caches", "caching", "memoize"},
	{"cat", "cats", "kitten", "feline"},
	{"car", "cars", "automobile", "vehicle"},
	{"bug", "bugs", "defect", "fault", "issue"},
}

// stopWords carry no meaning for the fake embedder.
var stopWords = map[string]bool{"the": true, "a": true, "an": true, "and": true, "or": true, "of": true, "to": true, "for": true, "in": true, "on": true, "is": true}

var conceptOf = func() map[string]int {
	m := map[string]int{}
	for i, g := range concepts {
		for _, w := range g {
			m[w] = i
		}
	}
	return m
}()

// Vector is the fake embedding of text, deterministic: each word adds 1
// to the number of its concept, or to a number picked by its hash.
func Vector(text string, dims int) []float32 {
	v := make([]float32, dims)
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if stopWords[w] {
			continue
		}
		if c, ok := conceptOf[w]; ok {
			v[c%dims]++
			continue
		}
		h := fnv.New32a()
		h.Write([]byte(w))
		rest := dims - len(concepts)
		v[len(concepts)+int(h.Sum32()%uint32(rest))]++
	}
	return v
}

// WordEmbedder is the fake embedder in process (for benchmarks): Vector
// with Dims numbers.
type WordEmbedder struct{ Dims int }

// Model implements notes.Embedder.
func (e WordEmbedder) Model() string { return "fake/words" }

// Embed implements notes.Embedder.
func (e WordEmbedder) Embed(_ context.Context, texts []string, _ bool) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = Vector(t, e.Dims)
	}
	return out, nil
}

// FailWord in a text makes the fake server answer 500, as a provider
// that is down would.
const FailWord = "embedfail"

// EmbedServer is a fake embedding provider on 127.0.0.1 speaking both
// wire formats: Gemini's models/{m}:embedContent and :batchEmbedContents,
// and OpenAI's /v1/embeddings (floats or base64). Vectors are Vector's,
// of DefaultDims numbers unless the request asks for another size.
type EmbedServer struct {
	*httptest.Server
	fail     atomic.Bool
	requests atomic.Int64
	mu       sync.Mutex
	texts    []string
	last     Request
}

// Request is what the fake server last received.
type Request struct {
	Path, Auth string
	Body       []byte
}

// Last is the last request received.
func (s *EmbedServer) Last() Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last
}

// DefaultDims is the size of the fake server's vectors.
const DefaultDims = 64

// NewEmbedServer starts a fake embedding server; Close stops it.
func NewEmbedServer() *EmbedServer {
	s := &EmbedServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// SetFail makes every request fail (true) or succeed again.
func (s *EmbedServer) SetFail(on bool) { s.fail.Store(on) }

// Requests is how many embedding requests were answered or refused.
func (s *EmbedServer) Requests() int { return int(s.requests.Load()) }

// Texts are the texts embedded so far, in order.
func (s *EmbedServer) Texts() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.texts...)
}

func (s *EmbedServer) refuse(w http.ResponseWriter, texts []string) bool {
	s.requests.Add(1)
	failing := s.fail.Load()
	for _, t := range texts {
		failing = failing || strings.Contains(t, FailWord)
	}
	if failing {
		w.Header().Set("Content-Type", "application/json")
		// Try again in a millisecond, as OpenAI's servers may ask: the
		// SDK's retries still happen, without spending seconds of a
		// test on its backoff.
		w.Header().Set("Retry-After-Ms", "1")
		w.WriteHeader(http.StatusInternalServerError)
		w.Write([]byte(`{"error":{"code":500,"message":"the embedding model is unavailable","status":"INTERNAL"}}`))
		return true
	}
	s.mu.Lock()
	s.texts = append(s.texts, texts...)
	s.mu.Unlock()
	return false
}

type geminiReq struct {
	Model   string `json:"model"`
	Content struct {
		Parts []struct {
			Text string `json:"text"`
		} `json:"parts"`
	} `json:"content"`
	TaskType             string `json:"taskType"`
	OutputDimensionality int    `json:"outputDimensionality"`
}

func (r geminiReq) text() string {
	var b strings.Builder
	for _, p := range r.Content.Parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

func dimsOr(n int) int {
	if n > len(concepts) {
		return n
	}
	return DefaultDims
}

func (s *EmbedServer) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	r.Body = io.NopCloser(bytes.NewReader(body))
	auth := r.Header.Get("Authorization")
	if auth == "" {
		auth = r.Header.Get("x-goog-api-key")
	}
	s.mu.Lock()
	s.last = Request{Path: r.URL.Path, Auth: auth, Body: body}
	s.mu.Unlock()
	bad := func() { http.Error(w, `{"error":{"code":400,"message":"bad request"}}`, http.StatusBadRequest) }
	w.Header().Set("Content-Type", "application/json")
	switch {
	case strings.HasSuffix(r.URL.Path, ":batchEmbedContents"):
		var body struct {
			Requests []geminiReq `json:"requests"`
		}
		if json.NewDecoder(r.Body).Decode(&body) != nil || len(body.Requests) == 0 {
			bad()
			return
		}
		texts := make([]string, len(body.Requests))
		for i, q := range body.Requests {
			texts[i] = q.text()
		}
		if s.refuse(w, texts) {
			return
		}
		type values struct {
			Values []float32 `json:"values"`
		}
		out := make([]values, len(texts))
		for i, t := range texts {
			out[i] = values{Vector(t, dimsOr(body.Requests[i].OutputDimensionality))}
		}
		json.NewEncoder(w).Encode(map[string]any{"embeddings": out})
	case strings.HasSuffix(r.URL.Path, ":embedContent"):
		var q geminiReq
		if json.NewDecoder(r.Body).Decode(&q) != nil {
			bad()
			return
		}
		if s.refuse(w, []string{q.text()}) {
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"embedding": map[string]any{"values": Vector(q.text(), dimsOr(q.OutputDimensionality))}})
	case strings.HasSuffix(r.URL.Path, "/embeddings"):
		var body struct {
			Input          json.RawMessage `json:"input"`
			Model          string          `json:"model"`
			Dimensions     int             `json:"dimensions"`
			EncodingFormat string          `json:"encoding_format"`
		}
		if json.NewDecoder(r.Body).Decode(&body) != nil {
			bad()
			return
		}
		var texts []string
		if json.Unmarshal(body.Input, &texts) != nil {
			var one string
			if json.Unmarshal(body.Input, &one) != nil {
				bad()
				return
			}
			texts = []string{one}
		}
		if s.refuse(w, texts) {
			return
		}
		data := make([]map[string]any, len(texts))
		tokens := 0
		for i, t := range texts {
			v := Vector(t, dimsOr(body.Dimensions))
			var emb any = v
			if body.EncodingFormat == "base64" {
				b := make([]byte, 4*len(v))
				for j, x := range v {
					binary.LittleEndian.PutUint32(b[4*j:], math.Float32bits(x))
				}
				emb = base64.StdEncoding.EncodeToString(b)
			}
			data[i] = map[string]any{"object": "embedding", "index": i, "embedding": emb}
			tokens += len(strings.Fields(t))
		}
		json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": body.Model,
			"usage": map[string]int{"prompt_tokens": tokens, "total_tokens": tokens}})
	default:
		http.NotFound(w, r)
	}
}
