package imagefit

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"image/png"

	xdraw "golang.org/x/image/draw"
)

// jpegQuality is the quality of a photo re-encoded as JPEG: no artefacts
// a model would mistake for content, at about a tenth of a PNG's size;
// smallQuality is tried when that is still over the byte limit.
const (
	jpegQuality  = 85
	smallQuality = 65
)

// scale returns src scaled to w×h: halved while it is at least twice
// as large (bilinear at exactly half the size averages each 2×2 block,
// a box filter, and is fast), then Catmull-Rom for the rest, the
// sharpest of x/image/draw's filters: text in a screenshot stays legible
// where bilinear alone, skipping pixels, loses thin strokes. (Catmull-Rom
// all the way costs ten times more for a 4000×3000 screenshot; see
// BenchmarkScale.)
func scale(src image.Image, w, h int) *image.RGBA {
	for b := src.Bounds(); b.Dx() >= 2*w && b.Dy() >= 2*h; b = src.Bounds() {
		half := image.NewRGBA(image.Rect(0, 0, b.Dx()/2, b.Dy()/2))
		xdraw.ApproxBiLinear.Scale(half, half.Bounds(), src, b, xdraw.Src, nil)
		src = half
	}
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	b := src.Bounds()
	if b.Dx() == w && b.Dy() == h {
		draw.Draw(dst, dst.Bounds(), src, b.Min, draw.Src)
		return dst
	}
	xdraw.CatmullRom.Scale(dst, dst.Bounds(), src, b, xdraw.Src, nil)
	return dst
}

// encode writes img as JPEG when it is a photo, else as PNG; a PNG over
// maxBytes (0: no limit) is written as JPEG instead, and a JPEG over it
// again at a lower quality.
func encode(img *image.RGBA, photo bool, maxBytes int) (string, []byte, error) {
	var buf bytes.Buffer
	if !photo {
		enc := png.Encoder{CompressionLevel: png.DefaultCompression}
		if err := enc.Encode(&buf, img); err != nil {
			return "", nil, fmt.Errorf("encode PNG: %w", err)
		}
		if maxBytes <= 0 || buf.Len() <= maxBytes {
			return "image/png", buf.Bytes(), nil
		}
	}
	flat := onWhite(img)
	for _, q := range []int{jpegQuality, smallQuality} {
		buf.Reset()
		if err := jpeg.Encode(&buf, flat, &jpeg.Options{Quality: q}); err != nil {
			return "", nil, fmt.Errorf("encode JPEG: %w", err)
		}
		if maxBytes <= 0 || buf.Len() <= maxBytes {
			break
		}
	}
	return "image/jpeg", buf.Bytes(), nil
}

// onWhite lays an image with transparent parts on white, as a viewer
// shows it: JPEG has no alpha, and its encoder would make them black.
func onWhite(img *image.RGBA) *image.RGBA {
	if img.Opaque() {
		return img
	}
	out := image.NewRGBA(img.Bounds())
	draw.Draw(out, out.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	draw.Draw(out, out.Bounds(), img, img.Bounds().Min, draw.Over)
	return out
}

// photoColours is how many distinct colours, among the pixels sampled,
// make an image a photo: screenshots, charts and diagrams (even with
// anti-aliased text) have a few thousand, photos tens of thousands.
const photoColours = 8192

// manyColours reports whether img looks like a photo, from the distinct
// colours of up to 64k pixels sampled on a grid.
func manyColours(img image.Image) bool {
	b := img.Bounds()
	step := 1
	for (b.Dx()/step)*(b.Dy()/step) > 1<<16 {
		step++
	}
	seen := make(map[uint32]struct{}, photoColours)
	for y := b.Min.Y; y < b.Max.Y; y += step {
		for x := b.Min.X; x < b.Max.X; x += step {
			r, g, bl, _ := img.At(x, y).RGBA()
			seen[r>>8<<16|g>>8<<8|bl>>8] = struct{}{}
			if len(seen) > photoColours {
				return true
			}
		}
	}
	return false
}
