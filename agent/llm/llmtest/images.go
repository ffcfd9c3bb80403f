package llmtest

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	_ "image/gif" // the formats the fakes read, as the real APIs do
	_ "image/jpeg"
	"image/png"
	"slices"
	"strings"
	"sync"
	"testing"

	_ "golang.org/x/image/webp"

	"github.com/agentcli/agent/agent/llm"
)

// decodeImage reads an image as a request carried it (base64 of the
// bytes, and the MIME type it claimed), checking what the real APIs
// check: the base64 is valid, the bytes are an image of the claimed type
// (Anthropic refuses a mismatch), and the type is one the API reads.
func decodeImage(mime, b64 string, accepted ...string) (llm.Image, error) {
	if !slices.Contains(accepted, mime) {
		return llm.Image{}, fmt.Errorf("image media type %q is not supported (use one of %s)", mime, strings.Join(accepted, ", "))
	}
	data, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return llm.Image{}, fmt.Errorf("image data is not valid base64: %w", err)
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return llm.Image{}, fmt.Errorf("image data cannot be decoded: %w", err)
	}
	if "image/"+format != mime {
		return llm.Image{}, fmt.Errorf("image was declared as %s but is %s", mime, "image/"+format)
	}
	return llm.NewImage(mime, data, cfg.Width, cfg.Height), nil
}

// SameMessages reports whether two conversations are equal: roles,
// texts and images (type, size and bytes).
func SameMessages(a, b []llm.Message) bool {
	return slices.EqualFunc(a, b, func(x, y llm.Message) bool {
		return x.Role == y.Role && x.Text == y.Text && slices.EqualFunc(x.Images, y.Images, func(i, j llm.Image) bool {
			return i.MIME == j.MIME && i.Width == j.Width && i.Height == j.Height && bytes.Equal(i.Data, j.Data)
		})
	})
}

// Images returns the images of the last user message, nil if there are
// none: where a request carries an attachment or a tool's picture.
func (r Request) Images() []llm.Image {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == llm.User {
			return r.Messages[i].Images
		}
	}
	return nil
}

// sniffMIME is the type of an image sent as base64 without one
// (Ollama's images), read from its first bytes.
func sniffMIME(b64 string) string {
	head, _ := base64.StdEncoding.DecodeString(b64[:min(len(b64), 16)])
	switch {
	case bytes.HasPrefix(head, []byte("\x89PNG")):
		return "image/png"
	case bytes.HasPrefix(head, []byte("\xff\xd8\xff")):
		return "image/jpeg"
	case bytes.HasPrefix(head, []byte("GIF8")):
		return "image/gif"
	case len(head) >= 12 && string(head[8:12]) == "WEBP":
		return "image/webp"
	}
	return "application/octet-stream"
}

// PNG returns a w×h PNG that looks like a screenshot (flat panels, lines
// of dark "text", a few colours), for tests that attach or read images.
// Each size is drawn and encoded once per test binary.
func PNG(t testing.TB, w, h int) []byte {
	t.Helper()
	key := [2]int{w, h}
	if b, ok := pngs.Load(key); ok {
		return slices.Clone(b.([]byte))
	}
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	panels := [][4]byte{{250, 250, 250, 255}, {30, 30, 46, 255}, {0, 120, 212, 255}}
	ink := [4]byte{20, 20, 20, 255}
	for y := range h {
		row := img.Pix[y*img.Stride:]
		for x := range w {
			c := panels[(x*3/w+y*2/h)%len(panels)]
			if y%24 < 12 && x%9 < 6 && (x/40+y/24)%3 != 0 {
				c = ink
			}
			copy(row[4*x:4*x+4], c[:])
		}
	}
	var b bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	pngs.Store(key, b.Bytes())
	return slices.Clone(b.Bytes())
}

// pngs are the PNGs drawn so far, by size.
var pngs sync.Map

// PNGImage is PNG(t, w, h) as a message's image.
func PNGImage(t testing.TB, w, h int) llm.Image {
	t.Helper()
	return llm.NewImage("image/png", PNG(t, w, h), w, h)
}
