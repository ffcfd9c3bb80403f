package gemini

import (
	"context"
	"strings"

	"google.golang.org/genai"

	"github.com/agentcli/agent/agent/llm"
)

var _ llm.ImageTaker = (*Model)(nil)

// The Gemini API's image limits (ai.google.dev, "Image understanding"
// and "Understand and count tokens"): images are scaled to fit 3072×3072
// on the server, so larger ones only cost upload time; an inline image
// may be up to 7 MB; GIF is not among the formats it reads.
const (
	maxEdge  = 3072
	maxBytes = 7 << 20
)

// ImageSpec says what the model takes of images. Every Gemini model
// since 1.5 reads images; the speech, embedding and image-generation
// variants are the exceptions.
func (m *Model) ImageSpec(context.Context) llm.ImageSpec {
	s := llm.ImageSpec{
		Accepts: true,
		Why:     "Gemini models read images",
		MaxEdge: maxEdge, MaxBytes: maxBytes,
		Formats: []string{"image/png", "image/jpeg", "image/webp"},
		Tokens:  ImageTokens,
	}
	for _, no := range []string{"tts", "embedding", "aqa", "imagen"} {
		if strings.Contains(m.model, no) {
			s.Accepts, s.Why = false, m.model+" is a "+no+" model, which reads no images"
		}
	}
	return llm.ImageOverride(s, m.images)
}

// ImageTokens is Gemini's count for an image: 258 tokens when both sides
// are at most 384 pixels, else 258 for each 768×768 tile it is cut into.
func ImageTokens(width, height int) int {
	if width <= 384 && height <= 384 {
		return 258
	}
	return ((width + 767) / 768) * ((height + 767) / 768) * 258
}

// parts is a message as Gemini parts: its text, then each image as
// inline data (base64 on the wire, with its MIME type).
func parts(msg llm.Message) []*genai.Part {
	ps := make([]*genai.Part, 0, 1+len(msg.Images))
	if msg.Text != "" || len(msg.Images) == 0 {
		ps = append(ps, genai.NewPartFromText(msg.Text))
	}
	for _, img := range msg.Images {
		ps = append(ps, genai.NewPartFromBytes(img.Data, img.MIME))
	}
	return ps
}
