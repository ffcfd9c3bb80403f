package gemini

import (
	"encoding/base64"
	"encoding/json"
	"testing"

	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/llm/llmtest"
)

// TestImagesOnTheWire: an image travels as an inlineData part with its
// mimeType and the bytes in base64, after the text part.
func TestImagesOnTheWire(t *testing.T) {
	s := llmtest.NewGeminiServer(t, llmtest.Say("ok"))
	m := newTestModel(t, s, llm.Policy{})
	shot := llmtest.PNGImage(t, 40, 30)
	req := llm.Request{Messages: []llm.Message{{Role: llm.User, Text: "what is wrong?", Images: []llm.Image{shot}}}}
	if _, _, _, err := llmtest.Collect(m.Stream(t.Context(), req)); err != nil {
		t.Fatal(err)
	}
	var body struct {
		Contents []struct {
			Parts []struct {
				Text       string `json:"text"`
				InlineData *struct {
					MIMEType string `json:"mimeType"`
					Data     string `json:"data"`
				} `json:"inlineData"`
			} `json:"parts"`
		} `json:"contents"`
	}
	if err := json.Unmarshal(s.Requests()[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	ps := body.Contents[0].Parts
	if len(ps) != 2 || ps[0].Text != "what is wrong?" || ps[1].InlineData == nil {
		t.Fatalf("parts = %+v, want the text, then the image", ps)
	}
	data, err := base64.StdEncoding.DecodeString(ps[1].InlineData.Data)
	if err != nil || ps[1].InlineData.MIMEType != "image/png" || string(data) != string(shot.Data) {
		t.Errorf("inlineData = %s, %d bytes (%v), want image/png with the image's bytes", ps[1].InlineData.MIMEType, len(data), err)
	}
}

func TestImageSpec(t *testing.T) {
	no := false
	for _, tc := range []struct {
		model  string
		images *bool
		want   bool
	}{
		{"gemini-2.5-flash", nil, true},
		{"gemini-2.5-pro", nil, true},
		{"gemini-2.5-flash-preview-tts", nil, false},
		{"gemini-2.5-flash", &no, false},
	} {
		m := &Model{model: tc.model, images: tc.images}
		if s := m.ImageSpec(t.Context()); s.Accepts != tc.want || s.Why == "" || s.TakesFormat("image/gif") {
			t.Errorf("%s: accepts %v (%s), want %v; GIF taken: %v", tc.model, s.Accepts, s.Why, tc.want, s.TakesFormat("image/gif"))
		}
	}
}

// TestImageTokens checks Gemini's rule: 258 tokens up to 384×384, else
// 258 per 768×768 tile.
func TestImageTokens(t *testing.T) {
	for _, tc := range []struct{ w, h, want int }{
		{384, 384, 258}, {385, 100, 258}, {1000, 1000, 1032}, {3072, 2304, 3096},
	} {
		if got := ImageTokens(tc.w, tc.h); got != tc.want {
			t.Errorf("ImageTokens(%d, %d) = %d, want %d", tc.w, tc.h, got, tc.want)
		}
	}
}
