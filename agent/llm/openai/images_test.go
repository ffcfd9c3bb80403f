package openai

import (
	"encoding/base64"
	"encoding/json"
	"testing"

	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/llm/llmtest"
)

// TestImagesOnTheWire: an image travels as an image_url part whose url
// is a data URL, after the text part.
func TestImagesOnTheWire(t *testing.T) {
	s := llmtest.NewOpenAIServer(t, llmtest.Say("ok"))
	m := newTestModel(t, s, llm.Policy{})
	shot := llmtest.PNGImage(t, 40, 30)
	req := llm.Request{Messages: []llm.Message{{Role: llm.User, Text: "what is wrong?", Images: []llm.Image{shot}}}}
	if _, _, _, err := llmtest.Collect(m.Stream(t.Context(), req)); err != nil {
		t.Fatal(err)
	}
	var body struct {
		Messages []struct {
			Content []struct {
				Type     string `json:"type"`
				Text     string `json:"text"`
				ImageURL struct {
					URL string `json:"url"`
				} `json:"image_url"`
			} `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(s.Requests()[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	parts := body.Messages[0].Content
	want := "data:image/png;base64," + base64.StdEncoding.EncodeToString(shot.Data)
	if len(parts) != 2 || parts[0].Type != "text" || parts[0].Text != "what is wrong?" || parts[1].Type != "image_url" || parts[1].ImageURL.URL != want {
		t.Errorf("content parts = %+v, want the text, then the image as a data URL", parts)
	}
}

func TestImageSpec(t *testing.T) {
	yes, no := true, false
	for _, tc := range []struct {
		model  string
		images *bool
		want   bool
	}{
		{"gpt-4.1-mini", nil, true},
		{"gpt-4o", nil, true},
		{"o3-mini", nil, false},
		{"gpt-3.5-turbo", nil, false},
		{"google/gemini-2.5-flash", nil, true},
		{"anthropic/claude-sonnet-4.5", nil, true},
		{"llama-3.3-70b", nil, false},
		{"qwen2.5-vl-72b-instruct", nil, true},
		{"llama-3.3-70b", &yes, true},
		{"gpt-4o", &no, false},
	} {
		m, err := New(Options{Model: tc.model, BaseURL: "http://127.0.0.1:1/v1", Images: tc.images})
		if err != nil {
			t.Fatal(err)
		}
		s := m.ImageSpec(t.Context())
		if s.Accepts != tc.want || s.Why == "" {
			t.Errorf("%s (images %v): accepts %v (%s), want %v", tc.model, tc.images, s.Accepts, s.Why, tc.want)
		}
		if s.MaxEdge != 2048 || s.MaxShortEdge != 768 {
			t.Errorf("%s: limits %d/%d", tc.model, s.MaxEdge, s.MaxShortEdge)
		}
	}
}

// TestImageTokens checks the rules against the examples of OpenAI's
// vision guide.
func TestImageTokens(t *testing.T) {
	for _, tc := range []struct {
		model      string
		w, h, want int
	}{
		{"gpt-4o", 1024, 1024, 765},  // 768×768: 4 tiles
		{"gpt-4o", 2048, 4096, 1105}, // 768×1536: 6 tiles
		{"gpt-4o", 100, 100, 255},    // one tile
		{"gpt-4.1-mini", 1024, 1024, 1658},
		{"gpt-4.1-mini", 1800, 2400, 2352}, // 1452 patches × 1.62
	} {
		if got := imageTokens(tc.model)(tc.w, tc.h); got != tc.want {
			t.Errorf("%s %d×%d: %d tokens, want %d", tc.model, tc.w, tc.h, got, tc.want)
		}
	}
	if got := PatchCount(1800, 2400); got != 1452 {
		t.Errorf("PatchCount(1800, 2400) = %d, want 1452", got)
	}
}
