package openai

import (
	"context"
	"encoding/base64"
	"math"
	"strings"

	"github.com/agentcli/agent/agent/llm"
)

var _ llm.ImageTaker = (*Model)(nil)

// OpenAI's image limits (platform.openai.com, "Images and vision"): at
// high detail an image is scaled to fit 2048×2048 and then to 768 pixels
// on its short side, so nothing larger is worth sending; one image may
// be up to 20 MB (50 MB for a whole request). Compatible servers take
// the same form; their own limits are not lower for these sizes.
const (
	maxEdge      = 2048
	maxShortEdge = 768
	maxBytes     = 20 << 20
)

// ImageSpec says what the model takes of images: a model of a family
// known to read them (llm.KnownVision), unless the configuration says
// otherwise.
func (m *Model) ImageSpec(context.Context) llm.ImageSpec {
	s := llm.ImageSpec{
		Accepts: llm.KnownVision(m.o.Model),
		MaxEdge: maxEdge, MaxShortEdge: maxShortEdge, MaxBytes: maxBytes,
		Formats: []string{"image/png", "image/jpeg", "image/webp"},
		Tokens:  imageTokens(m.o.Model),
	}
	if s.Accepts {
		s.Why = m.o.Model + " is of a family that reads images"
	} else {
		s.Why = m.o.Model + " is not known to read images (set images = true for it in the configuration if it does)"
	}
	return llm.ImageOverride(s, m.o.Images)
}

// patchModels are the models that count an image in 32-pixel patches
// (at most 1,536) times a multiplier, instead of in tiles.
var patchModels = []struct {
	prefix string
	factor float64
}{
	{"gpt-4.1-mini", 1.62}, {"gpt-4.1-nano", 2.46}, {"gpt-5-mini", 1.62}, {"gpt-5-nano", 2.46}, {"o4-mini", 1.72},
}

// imageTokens is the model's rule for what an image costs: OpenAI's tile
// rule (85 tokens, and 170 for each 512×512 tile of the image scaled to
// 2048×2048 and to 768 on its short side) or, for the small models, its
// patch rule.
func imageTokens(model string) func(width, height int) int {
	m := strings.ToLower(model)
	if _, after, ok := strings.Cut(m, "/"); ok {
		m = after
	}
	for _, p := range patchModels {
		if strings.HasPrefix(m, p.prefix) {
			return func(w, h int) int { return int(float64(PatchCount(w, h)) * p.factor) }
		}
	}
	return TileTokens
}

// TileTokens is the tile rule at high detail.
func TileTokens(width, height int) int {
	w, h := float64(width), float64(height)
	if long := max(w, h); long > maxEdge {
		w, h = w*maxEdge/long, h*maxEdge/long
	}
	if short := min(w, h); short > maxShortEdge {
		w, h = w*maxShortEdge/short, h*maxShortEdge/short
	}
	tiles := ((int(w) + 511) / 512) * ((int(h) + 511) / 512)
	return 85 + 170*tiles
}

// PatchCount is the number of 32-pixel patches of an image as OpenAI
// counts them: an image of more than 1,536 patches is scaled down to
// about that area, then a little more so its width is a whole number of
// patches.
func PatchCount(width, height int) int {
	const most = 1536
	patches := func(w, h int) int { return ((w + 31) / 32) * ((h + 31) / 32) }
	if n := patches(width, height); n <= most {
		return n
	}
	f := math.Sqrt(float64(most*32*32) / (float64(width) * float64(height)))
	w, h := float64(width)*f, float64(height)*f
	f = math.Floor(w/32) / (w / 32)
	return min(patches(int(w*f), int(h*f)), most)
}

// content is a user message's content: plain text, or with images its
// text and then each image as an image_url part holding a data URL.
func content(msg llm.Message) any {
	if len(msg.Images) == 0 {
		return msg.Text
	}
	parts := make([]contentPart, 0, 1+len(msg.Images))
	if msg.Text != "" {
		parts = append(parts, contentPart{Type: "text", Text: msg.Text})
	}
	for _, img := range msg.Images {
		parts = append(parts, contentPart{Type: "image_url", ImageURL: &imageURL{
			URL: "data:" + img.MIME + ";base64," + base64.StdEncoding.EncodeToString(img.Data),
		}})
	}
	return parts
}
