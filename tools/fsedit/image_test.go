package fsedit

import (
	"bytes"
	"image"
	"image/png"
	"strings"
	"testing"

	"github.com/agentcli/agent/tools"
)

func pngBytes(t *testing.T, w, h int) string {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestReadImage(t *testing.T) {
	shot := pngBytes(t, 40, 30)
	webp := "RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00\x2f\x00\x00\x00\x10\x07\x10\x11\x11\x88\x88\xfe\x07\x00"
	p := newProject(t, map[string]string{
		"shot.png":        shot,
		"capture.dat":     shot, // an image by its content, whatever its name
		"photo.webp":      webp,
		"fake.png":        "not an image\n",
		"keys/server.key": shot,
	})
	for _, tc := range []struct{ path, mime, data string }{
		{"shot.png", "image/png", shot},
		{"capture.dat", "image/png", shot},
		{"photo.webp", "image/webp", webp},
	} {
		res := p.read(tc.path)
		wantOK(t, res)
		if res.Image == nil {
			t.Fatalf("read %s: no image in the result %+v", tc.path, res)
		}
		if res.Image.MIME != tc.mime || res.Image.Data == nil || string(res.Image.Data) != tc.data || res.Image.Path != tc.path {
			t.Errorf("read %s: image %s %d bytes from %q, want %s %d bytes", tc.path, res.Image.MIME, len(res.Image.Data), res.Image.Path, tc.mime, len(tc.data))
		}
		if meta(res, "type") != tc.mime || meta(res, "size") == "" || !strings.Contains(res.Message, tc.mime) {
			t.Errorf("read %s: message %q metadata %v", tc.path, res.Message, res.Metadata)
		}
	}
	// A line range means nothing for an image: it is still the image.
	if res := p.read("shot.png", "start_line", "2"); res.Image == nil {
		t.Errorf("a ranged read of an image: %+v", res)
	}
	wantCode(t, p.read("fake.png"), tools.CodeUnsupportedType, "not a PNG, JPEG, GIF or WebP image")
	wantCode(t, p.read("keys/server.key"), tools.CodePolicyDenied, "secrets")
	wantCode(t, p.write("create", "new.png", "x\n"), tools.CodeUnsupportedType, ".png")
	if res := p.read("shot.png"); res.Content != "" {
		t.Errorf("an image's text content is %q, want none: the loop says what the model gets", res.Content)
	}
}

func TestReadImageTooLarge(t *testing.T) {
	p := newProject(t, map[string]string{"big.png": pngBytes(t, 1, 1) + strings.Repeat("\x00", MaxImageBytes)})
	wantCode(t, p.read("big.png"), tools.CodeFileTooLarge, "images")
}
