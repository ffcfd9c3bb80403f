package embedding

import (
	"context"
	"fmt"
	"sync"

	"google.golang.org/genai"
)

// geminiBatch is the most texts Gemini embeds in one request.
const geminiBatch = 100

// gemini embeds through genai's EmbedContent (batchEmbedContents on the
// wire), with the task type that tells a query from a document.
type gemini struct {
	o      Options
	once   sync.Once
	client *genai.Client
	err    error
}

func newGemini(o Options) *gemini { return &gemini{o: o} }

// Model implements notes.Embedder.
func (g *gemini) Model() string { return name("gemini", g.o.Model, g.o.Dimensions) }

// Embed implements notes.Embedder.
func (g *gemini) Embed(ctx context.Context, texts []string, query bool) ([][]float32, error) {
	g.once.Do(func() {
		key := g.o.APIKey
		if key == "" {
			key = "none" // a local server needs none; the SDK wants one
		}
		g.client, g.err = genai.NewClient(ctx, &genai.ClientConfig{
			APIKey:      key,
			Backend:     genai.BackendGeminiAPI,
			HTTPClient:  g.o.HTTPClient,
			HTTPOptions: genai.HTTPOptions{BaseURL: g.o.BaseURL},
		})
	})
	if g.err != nil {
		return nil, fmt.Errorf("gemini client: %w", g.err)
	}
	cfg := &genai.EmbedContentConfig{TaskType: "RETRIEVAL_DOCUMENT"}
	if query {
		cfg.TaskType = "RETRIEVAL_QUERY"
	}
	if g.o.Dimensions > 0 {
		d := int32(g.o.Dimensions)
		cfg.OutputDimensionality = &d
	}
	return inBatches(texts, geminiBatch, func(batch []string) ([][]float32, error) {
		contents := make([]*genai.Content, len(batch))
		for i, t := range batch {
			contents[i] = genai.NewContentFromText(t, genai.RoleUser)
		}
		resp, err := g.client.Models.EmbedContent(ctx, g.o.Model, contents, cfg)
		if err != nil {
			return nil, err
		}
		out := make([][]float32, len(resp.Embeddings))
		for i, e := range resp.Embeddings {
			out[i] = e.Values
		}
		return out, nil
	})
}
