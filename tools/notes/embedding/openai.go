package embedding

import (
	"context"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// openaiBatch is how many texts go in one /v1/embeddings request.
const openaiBatch = 256

// openaiEmbedder embeds through an OpenAI-compatible /v1/embeddings.
type openaiEmbedder struct {
	o Options
	// The service alone, not openai.NewClient: the client would link
	// every service of the API into the binary (megabytes).
	svc openai.EmbeddingService
}

func newOpenAI(o Options) *openaiEmbedder {
	opts := []option.RequestOption{option.WithHTTPClient(o.HTTPClient), option.WithMaxRetries(2)}
	base := o.BaseURL
	if base == "" {
		base = "https://api.openai.com/v1/"
	}
	opts = append(opts, option.WithBaseURL(base))
	if o.APIKey != "" {
		opts = append(opts, option.WithAPIKey(o.APIKey))
	} else {
		opts = append(opts, option.WithAPIKey("none")) // a local server needs none
	}
	return &openaiEmbedder{o: o, svc: openai.NewEmbeddingService(opts...)}
}

// Model implements notes.Embedder.
func (e *openaiEmbedder) Model() string { return name("openai", e.o.Model, e.o.Dimensions) }

// Embed implements notes.Embedder. The vectors come as floats, which
// every compatible server speaks (base64 is OpenAI's own).
func (e *openaiEmbedder) Embed(ctx context.Context, texts []string, _ bool) ([][]float32, error) {
	return inBatches(texts, openaiBatch, func(batch []string) ([][]float32, error) {
		p := openai.EmbeddingNewParams{
			Model:          openai.EmbeddingModel(e.o.Model),
			Input:          openai.EmbeddingNewParamsInputUnion{OfArrayOfStrings: batch},
			EncodingFormat: openai.EmbeddingNewParamsEncodingFormatFloat,
		}
		if e.o.Dimensions > 0 {
			p.Dimensions = openai.Int(int64(e.o.Dimensions))
		}
		resp, err := e.svc.New(ctx, p)
		if err != nil {
			return nil, err
		}
		out := make([][]float32, len(batch))
		for _, d := range resp.Data {
			if d.Index < 0 || int(d.Index) >= len(out) {
				continue
			}
			v := make([]float32, len(d.Embedding))
			for i, x := range d.Embedding {
				v[i] = float32(x)
			}
			out[d.Index] = v
		}
		return out, nil
	})
}
