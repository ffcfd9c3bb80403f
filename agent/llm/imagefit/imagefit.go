// Package imagefit prepares pictures for models: it reads PNG, JPEG, GIF
// and WebP, scales an image down to what a model takes (llm.ImageSpec:
// its edge, area and byte limits, its formats) and encodes it again.
// Pixels a provider would scale away on its server are never uploaded or
// stored, and the context budget counts the image as it is sent.
//
// An image that already fits is sent as it is, byte for byte. One that
// is scaled or converted is encoded as JPEG when it is a photo (the
// source was a JPEG, or it has many colours) and as PNG otherwise
// (screenshots, diagrams: few colours, sharp edges that JPEG blurs).
package imagefit

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // the formats read, registered with package image
	_ "image/jpeg"
	_ "image/png"
	"math"

	_ "golang.org/x/image/webp"

	"github.com/agentcli/agent/agent/llm"
)

// MaxFileBytes is the largest image file the agent reads.
const MaxFileBytes = 32 << 20

// MaxPixels bounds the images decoded: a small file can claim a huge
// canvas (a decompression bomb), and decoding 50 megapixels already
// takes 200 MB.
const MaxPixels = 50_000_000

// ErrNotImage is returned for data that is none of the formats read.
var ErrNotImage = errors.New("not a PNG, JPEG, GIF or WebP image")

// Info is what an image's header says of it.
type Info struct {
	MIME          string
	Width, Height int
	Bytes         int
}

// String says it in a few words: "PNG image, 4000×3000 pixels, 1.2 MiB".
func (i Info) String() string {
	return fmt.Sprintf("%s image, %d×%d pixels, %s", formatName(i.MIME), i.Width, i.Height, size(i.Bytes))
}

// Probe reads the type and size of the image in data from its header,
// without decoding the pixels. The type is told by the image package's
// registry of formats (the first bytes of each), which this package
// fills by importing the four decoders.
func Probe(data []byte) (Info, error) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	mime := "image/" + format
	switch {
	case errors.Is(err, image.ErrFormat):
		return Info{}, ErrNotImage
	case err != nil:
		return Info{}, fmt.Errorf("a damaged %s image: %w", formatName(mime), err)
	case cfg.Width <= 0 || cfg.Height <= 0:
		return Info{}, fmt.Errorf("a %s image with no pixels", formatName(mime))
	}
	return Info{MIME: mime, Width: cfg.Width, Height: cfg.Height, Bytes: len(data)}, nil
}

// Fit returns the image in data as a model of spec should get it: as it
// is when it fits, else scaled down and encoded again (see the package
// documentation). Info describes the original.
func Fit(data []byte, spec llm.ImageSpec) (llm.Image, Info, error) {
	info, err := Probe(data)
	if err != nil {
		return llm.Image{}, info, err
	}
	if info.Width*info.Height > MaxPixels {
		return llm.Image{}, info, fmt.Errorf("%s: over %d megapixels, too large to read; scale it down first", info, MaxPixels/1_000_000)
	}
	w, h := Target(info.Width, info.Height, spec)
	fitsBytes := spec.MaxBytes <= 0 || len(data) <= spec.MaxBytes
	if w == info.Width && h == info.Height && fitsBytes && spec.TakesFormat(info.MIME) {
		return llm.NewImage(info.MIME, data, w, h), info, nil
	}
	src, err := decode(data)
	if err != nil {
		return llm.Image{}, info, fmt.Errorf("a damaged %s image: %w", formatName(info.MIME), err)
	}
	photo := info.MIME == "image/jpeg" || manyColours(src)
	for {
		img := scale(src, w, h)
		mime, out, err := encode(img, photo, spec.MaxBytes)
		if err != nil {
			return llm.Image{}, info, err
		}
		if spec.MaxBytes <= 0 || len(out) <= spec.MaxBytes || w <= 64 || h <= 64 {
			return llm.NewImage(mime, out, w, h), info, nil
		}
		// Even the smaller JPEG is over the byte limit (noise compresses
		// badly): a quarter fewer pixels on each side, and again.
		w, h, photo = max(w*3/4, 1), max(h*3/4, 1), true
	}
}

// Target is the size an image of w×h pixels is scaled to for spec: the
// largest with the same aspect that keeps within its edge and area
// limits, never larger than the image.
func Target(w, h int, spec llm.ImageSpec) (int, int) {
	f := 1.0
	long, short := float64(max(w, h)), float64(min(w, h))
	if spec.MaxEdge > 0 && long*f > float64(spec.MaxEdge) {
		f = float64(spec.MaxEdge) / long
	}
	if spec.MaxShortEdge > 0 && short*f > float64(spec.MaxShortEdge) {
		f = float64(spec.MaxShortEdge) / short
	}
	if spec.MaxPixels > 0 && float64(w)*float64(h)*f*f > float64(spec.MaxPixels) {
		f = math.Sqrt(float64(spec.MaxPixels) / (float64(w) * float64(h)))
	}
	if f >= 1 {
		return w, h
	}
	return max(int(float64(w)*f), 1), max(int(float64(h)*f), 1)
}

func decode(data []byte) (image.Image, error) {
	img, _, err := image.Decode(bytes.NewReader(data)) // a GIF's first frame
	return img, err
}

func formatName(mime string) string {
	switch mime {
	case "image/png":
		return "PNG"
	case "image/jpeg":
		return "JPEG"
	case "image/gif":
		return "GIF"
	case "image/webp":
		return "WebP"
	}
	return mime
}

// size formats a byte count: 980 B, 45.2 KiB, 1.2 MiB.
func size(n int) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/1024)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}
