package llm

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"slices"
)

// Image is a picture in a user message, ready to send: already fitted to
// the model's limits (package imagefit), so a provider only wraps Data
// in its own form. A message's images follow its text, in order.
type Image struct {
	// MIME is image/png, image/jpeg, image/gif or image/webp.
	MIME string `json:"mime"`
	// Data is the encoded image. It is not part of the JSON form: the
	// session log keeps the bytes once, in a file named by SHA256.
	Data   []byte `json:"-"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
	// SHA256 is the hex digest of Data, the image's name wherever the
	// bytes are stored once and referred to.
	SHA256 string `json:"sha256"`
	// Source is the file it came from, as the person or the model named
	// it, for the model and the logs.
	Source string `json:"source,omitempty"`
	// CallID is the tool call whose result it is; "" for an image the
	// person attached.
	CallID string `json:"call_id,omitempty"`
}

// NewImage returns the image with its digest set.
func NewImage(mime string, data []byte, width, height int) Image {
	sum := sha256.Sum256(data)
	return Image{MIME: mime, Data: data, Width: width, Height: height, SHA256: hex.EncodeToString(sum[:])}
}

// ImageSpec is what a model takes of images: whether it sees them at
// all, the limits an image is fitted to before it is sent, and what one
// costs in the prompt. Each provider package has its own table.
type ImageSpec struct {
	// Accepts is false for a model that cannot see images: it is told
	// about an image in words instead.
	Accepts bool
	// Why says where Accepts comes from ("Ollama /api/show
	// capabilities", "images = false in the configuration"), for
	// messages.
	Why string
	// MaxEdge bounds the long edge and MaxShortEdge the short edge, in
	// pixels; MaxPixels bounds width×height; 0 is no bound.
	MaxEdge, MaxShortEdge, MaxPixels int
	// MaxBytes bounds one encoded image; 0 is no bound.
	MaxBytes int
	// Formats are the MIME types the model reads; an image in another
	// format is converted. Empty means PNG and JPEG.
	Formats []string
	// Tokens is what an image of width×height pixels (as sent) costs in
	// the prompt; nil counts with DefaultImageTokens.
	Tokens func(width, height int) int
}

// TakesFormat reports whether the model reads images of type mime as
// they are.
func (s ImageSpec) TakesFormat(mime string) bool {
	if len(s.Formats) == 0 {
		return mime == "image/png" || mime == "image/jpeg"
	}
	return slices.Contains(s.Formats, mime)
}

// Cost is what img costs in the prompt under the spec's rule.
func (s ImageSpec) Cost(img Image) int {
	if s.Tokens == nil {
		return DefaultImageTokens(img.Width, img.Height)
	}
	return s.Tokens(img.Width, img.Height)
}

// DefaultImageTokens counts an image whose model has no rule of its own:
// one token per 750 pixels (Anthropic's rule, the highest of the
// hosted providers' for the sizes the agent sends), at least 85.
func DefaultImageTokens(width, height int) int {
	return max((width*height+749)/750, 85)
}

// ImageTaker is a model that says whether, and how, it takes images. A
// model that does not implement it is sent no images.
type ImageTaker interface {
	// ImageSpec returns the model's spec. A model that has to ask its
	// server (Ollama's /api/show) asks once, bounded by WindowTimeout.
	ImageSpec(ctx context.Context) ImageSpec
}

// Wrapper is a model that wraps another (a spinner around the calls):
// what the wrapped model says of itself holds for the wrapper.
type Wrapper interface {
	Unwrap() Model
}

// ImageSpecOf is m's ImageSpec, looking through wrappers; a model that
// says nothing takes no images.
func ImageSpecOf(ctx context.Context, m Model) ImageSpec {
	for m != nil {
		if t, ok := m.(ImageTaker); ok {
			return t.ImageSpec(ctx)
		}
		w, ok := m.(Wrapper)
		if !ok {
			break
		}
		m = w.Unwrap()
	}
	name := "the model"
	if m != nil {
		name = m.Name()
	}
	return ImageSpec{Why: name + " does not say that it takes images"}
}

// ImageOverride applies the configuration's images setting (nil: none)
// to a provider's own verdict.
func ImageOverride(s ImageSpec, set *bool) ImageSpec {
	switch {
	case set == nil:
	case *set:
		s.Accepts, s.Why = true, "images = true in the configuration"
	default:
		s.Accepts, s.Why = false, "images = false in the configuration"
	}
	return s
}
