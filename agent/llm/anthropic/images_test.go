package anthropic

import (
	"encoding/base64"
	"encoding/json"
	"testing"

	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/llm/llmtest"
)

// TestImagesOnTheWire: an image travels as an image block with a base64
// source after the text block, and the cache breakpoint moves to it, the
// last block of the conversation.
func TestImagesOnTheWire(t *testing.T) {
	s := llmtest.NewAnthropicServer(t, llmtest.Say("ok"))
	m := newTestModel(t, s, llm.Policy{})
	shot := llmtest.PNGImage(t, 40, 30)
	req := llm.Request{Messages: []llm.Message{{Role: llm.User, Text: "what is wrong?", Images: []llm.Image{shot}}}}
	if _, _, _, err := llmtest.Collect(m.Stream(t.Context(), req)); err != nil {
		t.Fatal(err)
	}
	var body struct {
		Messages []struct {
			Content []struct {
				Type   string `json:"type"`
				Text   string `json:"text"`
				Source struct {
					Type      string `json:"type"`
					MediaType string `json:"media_type"`
					Data      string `json:"data"`
				} `json:"source"`
				CacheControl *struct{} `json:"cache_control"`
			} `json:"content"`
		} `json:"messages"`
	}
	r := s.Requests()[0]
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatal(err)
	}
	bs := body.Messages[0].Content
	if len(bs) != 2 || bs[0].Type != "text" || bs[0].Text != "what is wrong?" || bs[1].Type != "image" {
		t.Fatalf("blocks = %+v, want the text, then the image", bs)
	}
	src := bs[1].Source
	if src.Type != "base64" || src.MediaType != "image/png" || src.Data != base64.StdEncoding.EncodeToString(shot.Data) {
		t.Errorf("source = %s %s (%d chars), want base64 image/png with the image's bytes", src.Type, src.MediaType, len(src.Data))
	}
	if bs[0].CacheControl != nil || bs[1].CacheControl == nil {
		t.Errorf("cache_control on text %v, image %v: want it on the last block only", bs[0].CacheControl != nil, bs[1].CacheControl != nil)
	}
}

func TestImageSpec(t *testing.T) {
	for _, tc := range []struct {
		model string
		want  bool
	}{{"claude-sonnet-4-5", true}, {"claude-3-haiku-20240307", true}, {"claude-2.1", false}} {
		m := &Model{model: tc.model}
		if s := m.ImageSpec(t.Context()); s.Accepts != tc.want || s.MaxEdge != 1568 || s.MaxBytes != 3932160 {
			t.Errorf("%s: %+v, want accepts %v", tc.model, s, tc.want)
		}
	}
	// 1092×1092 is Anthropic's example of the largest square sent whole:
	// about 1,590 tokens.
	if got := ImageTokens(1092, 1092); got != 1590 {
		t.Errorf("ImageTokens(1092, 1092) = %d, want 1590", got)
	}
}
