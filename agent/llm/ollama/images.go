package ollama

import (
	"context"
	"encoding/base64"
	"net/http"
	"slices"

	"github.com/agentcli/agent/agent/llm"
)

var _ llm.ImageTaker = (*Model)(nil)

// Local vision models see images at a few hundred pixels (LLaVA 336 or
// 672, Gemma 3 896, Llama 3.2 Vision 560 tiles up to 1120) and spend the
// small windows of local machines on them: 1024 pixels on the long edge
// keeps text in a screenshot legible at a cost a 32k window can carry.
const (
	maxEdge  = 1024
	maxBytes = 20 << 20
)

// ImageSpec says what the model takes of images: Ollama's /api/show
// lists "vision" among a model's capabilities when it reads them. A
// server that does not answer leaves it to the family table
// (llm.KnownVision). The answer is asked once and kept.
func (m *Model) ImageSpec(ctx context.Context) llm.ImageSpec {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.spec == nil {
		s := llm.ImageSpec{MaxEdge: maxEdge, MaxBytes: maxBytes, Tokens: ImageTokens}
		s.Accepts, s.Why = m.vision(ctx)
		s = llm.ImageOverride(s, m.o.Images)
		m.spec = &s
	}
	return *m.spec
}

// vision asks /api/show whether the model reads images.
func (m *Model) vision(ctx context.Context) (bool, string) {
	var show struct {
		Capabilities []string `json:"capabilities"`
	}
	err := llm.AskJSON(ctx, m.hc, http.MethodPost, m.root+"/api/show", map[string]string{"model": m.o.Model}, &show)
	switch {
	case err == nil && show.Capabilities != nil:
		if slices.Contains(show.Capabilities, "vision") {
			return true, "Ollama /api/show lists vision among " + m.o.Model + "'s capabilities"
		}
		return false, "Ollama /api/show does not list vision among " + m.o.Model + "'s capabilities: pull a vision model (llava, gemma3, qwen2.5vl, llama3.2-vision)"
	case llm.KnownVision(m.o.Model):
		return true, m.o.Model + " is of a family that reads images"
	}
	return false, "Ollama did not say whether " + m.o.Model + " reads images, and it is not of a family known to (set images = true for it in the configuration if it does)"
}

// ImageTokens counts an image for a local model as one token per 28×28
// patch (Qwen 2.5 VL's rule, the costliest of the common ones; Gemma 3
// spends 256 on any image, LLaVA 576), at least 256.
func ImageTokens(width, height int) int {
	return max(((width+27)/28)*((height+27)/28), 256)
}

// encodeImages is a message's images as /api/chat takes them: base64,
// without a data URL's prefix.
func encodeImages(msg llm.Message) []string {
	if len(msg.Images) == 0 {
		return nil
	}
	out := make([]string, len(msg.Images))
	for i, img := range msg.Images {
		out[i] = base64.StdEncoding.EncodeToString(img.Data)
	}
	return out
}
