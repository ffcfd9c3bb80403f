package anthropic

import (
	"context"
	"encoding/base64"
	"strings"

	"github.com/agentcli/agent/agent/llm"
)

var _ llm.ImageTaker = (*Model)(nil)

// Anthropic's image limits (docs.claude.com, "Vision"): an image whose
// long edge is over 1,568 pixels, or whose area is over about 1.15
// megapixels, is scaled down on the server before the model sees it, so
// nothing larger is worth sending (the hard limit is 8000×8000, 2000×2000
// with more than 20 images); one image may be 5 MB in base64, 3.75 MB of
// bytes.
const (
	maxEdge   = 1568
	maxPixels = 1092 * 1092
	maxBytes  = 5 << 20 * 3 / 4
)

// ImageSpec says what the model takes of images: every Claude model
// since Claude 3 reads them.
func (m *Model) ImageSpec(context.Context) llm.ImageSpec {
	s := llm.ImageSpec{
		Accepts: true,
		Why:     "Claude 3 and later read images",
		MaxEdge: maxEdge, MaxPixels: maxPixels, MaxBytes: maxBytes,
		Formats: []string{"image/png", "image/jpeg", "image/gif", "image/webp"},
		Tokens:  ImageTokens,
	}
	if name := strings.ToLower(m.model); strings.HasPrefix(name, "claude-2") || strings.HasPrefix(name, "claude-instant") {
		s.Accepts, s.Why = false, m.model+" is older than Claude 3 and reads no images"
	}
	return llm.ImageOverride(s, m.images)
}

// ImageTokens is Anthropic's count for an image: one token per 750
// pixels.
func ImageTokens(width, height int) int { return (width*height + 749) / 750 }

// blocks is a message as content blocks: its text, then each image as
// an image block with a base64 source.
func blocks(msg llm.Message) []any {
	bs := make([]any, 0, 1+len(msg.Images))
	if msg.Text != "" || len(msg.Images) == 0 {
		bs = append(bs, &textBlock{Type: "text", Text: msg.Text})
	}
	for _, img := range msg.Images {
		bs = append(bs, &imageBlock{Type: "image", Source: imageSource{
			Type: "base64", MediaType: img.MIME, Data: base64.StdEncoding.EncodeToString(img.Data),
		}})
	}
	return bs
}

// markCache puts a cache breakpoint on the last block, text or image.
func markCache(bs []any) {
	switch last := bs[len(bs)-1].(type) {
	case *textBlock:
		last.CacheControl = ephemeral()
	case *imageBlock:
		last.CacheControl = ephemeral()
	}
}
