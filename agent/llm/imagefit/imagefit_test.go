package imagefit

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"math/rand/v2"
	"strings"
	"testing"

	xdraw "golang.org/x/image/draw"

	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/llm/llmtest"
)

// screenshot is a w×h picture like a screenshot (llmtest.PNG), decoded.
func screenshot(t testing.TB, w, h int) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(llmtest.PNG(t, w, h)))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// photo draws a w×h picture with the smooth gradients and noise of a
// photograph.
func photo(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	r := rand.New(rand.NewPCG(1, 2))
	for y := range h {
		for x := range w {
			img.SetRGBA(x, y, color.RGBA{uint8(x * 255 / w), uint8(y * 255 / h), uint8(r.IntN(256)), 255})
		}
	}
	return img
}

func encodePNG(t testing.TB, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// decoded decodes what Fit sent, to check it by its pixels, not by
// what Fit says of it.
func decoded(t *testing.T, img llm.Image) image.Config {
	t.Helper()
	cfg, format, err := image.DecodeConfig(bytes.NewReader(img.Data))
	if err != nil {
		t.Fatalf("the sent image does not decode: %v", err)
	}
	if "image/"+format != img.MIME {
		t.Errorf("sent image is %s, labelled %s", format, img.MIME)
	}
	if cfg.Width != img.Width || cfg.Height != img.Height {
		t.Errorf("sent image is %d×%d, labelled %d×%d", cfg.Width, cfg.Height, img.Width, img.Height)
	}
	return cfg
}

func TestFitScalesToEachProvidersLimits(t *testing.T) {
	data := llmtest.PNG(t, 4000, 3000)
	for _, tc := range []struct {
		name string
		spec llm.ImageSpec
		w, h int
	}{
		{"long edge (Gemini)", llm.ImageSpec{MaxEdge: 3072}, 3072, 2304},
		{"box then short side (OpenAI)", llm.ImageSpec{MaxEdge: 2048, MaxShortEdge: 768}, 1024, 768},
		{"edge and area (Anthropic)", llm.ImageSpec{MaxEdge: 1568, MaxPixels: 1092 * 1092}, 1260, 945},
		{"local model", llm.ImageSpec{MaxEdge: 1024}, 1024, 768},
	} {
		t.Run(tc.name, func(t *testing.T) {
			img, info, err := Fit(data, tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			if info.Width != 4000 || info.Height != 3000 || info.MIME != "image/png" {
				t.Errorf("info = %+v, want the original PNG 4000×3000", info)
			}
			cfg := decoded(t, img)
			if cfg.Width != tc.w || cfg.Height != tc.h {
				t.Errorf("sent %d×%d, want %d×%d", cfg.Width, cfg.Height, tc.w, tc.h)
			}
			if img.MIME != "image/png" {
				t.Errorf("a screenshot was sent as %s, want PNG", img.MIME)
			}
		})
	}
}

func TestFitKeepsAnImageThatFits(t *testing.T) {
	data := llmtest.PNG(t, 800, 600)
	img, _, err := Fit(data, llm.ImageSpec{MaxEdge: 1568, MaxBytes: 5 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(img.Data, data) {
		t.Error("an image within the limits was encoded again instead of sent as it is")
	}
	if img.SHA256 == "" || img.Width != 800 {
		t.Errorf("image = %d×%d sha %q", img.Width, img.Height, img.SHA256)
	}
}

func TestFitChoosesTheEncoding(t *testing.T) {
	spec := llm.ImageSpec{MaxEdge: 512}
	t.Run("photo as JPEG", func(t *testing.T) {
		img, _, err := Fit(encodePNG(t, photo(1024, 768)), spec)
		if err != nil {
			t.Fatal(err)
		}
		decoded(t, img)
		if img.MIME != "image/jpeg" {
			t.Errorf("a photo was sent as %s, want JPEG", img.MIME)
		}
	})
	t.Run("JPEG stays JPEG", func(t *testing.T) {
		var b bytes.Buffer
		jpeg.Encode(&b, screenshot(t, 1024, 768), nil)
		img, _, err := Fit(b.Bytes(), spec)
		if err != nil {
			t.Fatal(err)
		}
		if decoded(t, img); img.MIME != "image/jpeg" {
			t.Errorf("a JPEG was sent as %s", img.MIME)
		}
	})
	t.Run("GIF converted where it is not read", func(t *testing.T) {
		var b bytes.Buffer
		gif.Encode(&b, screenshot(t, 200, 100), nil)
		img, _, err := Fit(b.Bytes(), llm.ImageSpec{Formats: []string{"image/png", "image/jpeg"}})
		if err != nil {
			t.Fatal(err)
		}
		if cfg := decoded(t, img); img.MIME != "image/png" || cfg.Width != 200 {
			t.Errorf("GIF sent as %s %d×%d, want PNG 200×100", img.MIME, cfg.Width, cfg.Height)
		}
	})
	t.Run("over the byte limit", func(t *testing.T) {
		img, _, err := Fit(encodePNG(t, photo(1024, 768)), llm.ImageSpec{MaxBytes: 60 << 10})
		if err != nil {
			t.Fatal(err)
		}
		decoded(t, img)
		if len(img.Data) > 60<<10 {
			t.Errorf("sent %d bytes, over the limit of %d", len(img.Data), 60<<10)
		}
	})
	t.Run("transparency on white", func(t *testing.T) {
		src := photo(100, 100)
		for y := range 10 {
			for x := range 100 {
				src.SetRGBA(x, y, color.RGBA{})
			}
		}
		img, _, err := Fit(encodePNG(t, src), llm.ImageSpec{Formats: []string{"image/jpeg"}, MaxEdge: 50})
		if err != nil {
			t.Fatal(err)
		}
		if img.MIME != "image/jpeg" {
			t.Fatalf("sent as %s", img.MIME)
		}
		out, _ := jpeg.Decode(bytes.NewReader(img.Data))
		if r, g, b, _ := out.At(25, 0).RGBA(); r>>8 < 200 || g>>8 < 200 || b>>8 < 200 {
			t.Errorf("a transparent pixel became (%d,%d,%d), want white", r>>8, g>>8, b>>8)
		}
	})
}

func TestFitRefuses(t *testing.T) {
	if _, _, err := Fit([]byte("just text\n"), llm.ImageSpec{}); !errors.Is(err, ErrNotImage) {
		t.Errorf("text: err = %v, want ErrNotImage", err)
	}
	if _, _, err := Fit([]byte("\x89PNG\r\n\x1a\nbroken"), llm.ImageSpec{}); err == nil || !strings.Contains(err.Error(), "damaged PNG") {
		t.Errorf("broken PNG: err = %v", err)
	}
	// A 1×1 PNG whose header claims 100000×100000 pixels: refused
	// from the header, before anything is decoded.
	bomb := llmtest.PNG(t, 1, 1)
	binary.BigEndian.PutUint32(bomb[16:], 100000)
	binary.BigEndian.PutUint32(bomb[20:], 100000)
	binary.BigEndian.PutUint32(bomb[29:], crc32.ChecksumIEEE(bomb[12:29]))
	if _, _, err := Fit(bomb, llm.ImageSpec{MaxEdge: 1024}); err == nil || !strings.Contains(err.Error(), "too large to read") {
		t.Errorf("bomb: err = %v", err)
	}
}

func TestInfoString(t *testing.T) {
	info, err := Probe(llmtest.PNG(t, 40, 30))
	if err != nil {
		t.Fatal(err)
	}
	if got := info.String(); !strings.HasPrefix(got, "PNG image, 40×30 pixels, ") {
		t.Errorf("String() = %q", got)
	}
}

// BenchmarkScale compares the filters for a 4000×3000 screenshot scaled
// to Anthropic's 1568 pixels.
func BenchmarkScale(b *testing.B) {
	src := screenshot(b, 4000, 3000)
	for _, k := range []struct {
		name string
		s    xdraw.Scaler
	}{{"CatmullRom", xdraw.CatmullRom}, {"ApproxBiLinear", xdraw.ApproxBiLinear}, {"BiLinear", xdraw.BiLinear}} {
		b.Run(k.name, func(b *testing.B) {
			dst := image.NewRGBA(image.Rect(0, 0, 1568, 1176))
			for b.Loop() {
				k.s.Scale(dst, dst.Bounds(), src, src.Bounds(), xdraw.Src, nil)
			}
		})
	}
	b.Run("halving+CatmullRom", func(b *testing.B) {
		for b.Loop() {
			scale(src, 1568, 1176)
		}
	})
}

// BenchmarkFit is the whole work of attaching a 4000×3000 PNG: decode,
// scale, encode.
func BenchmarkFit(b *testing.B) {
	for _, k := range []struct {
		name string
		img  image.Image
	}{{"screenshot", screenshot(b, 4000, 3000)}, {"photo", photo(4000, 3000)}} {
		data := encodePNG(b, k.img)
		b.Run(k.name, func(b *testing.B) {
			for b.Loop() {
				if _, _, err := Fit(data, llm.ImageSpec{MaxEdge: 1568, MaxPixels: 1092 * 1092}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
