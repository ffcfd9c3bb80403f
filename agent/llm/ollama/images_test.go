package ollama_test

import (
	"encoding/base64"
	"encoding/json"
	"testing"

	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/llm/llmtest"
	"github.com/agentcli/agent/agent/llm/ollama"
)

// TestImagesOnTheWire: images travel in the message's images field,
// base64 without a data URL's prefix.
func TestImagesOnTheWire(t *testing.T) {
	s := newServer(t, llmtest.Say("ok"))
	m := newModel(t, s.URL, llm.Policy{})
	shot := llmtest.PNGImage(t, 40, 30)
	req := llm.Request{Messages: []llm.Message{{Role: llm.User, Text: "what is wrong?", Images: []llm.Image{shot}}}}
	if _, _, _, err := llmtest.Collect(m.Stream(t.Context(), req)); err != nil {
		t.Fatal(err)
	}
	var body struct {
		Messages []struct {
			Content string   `json:"content"`
			Images  []string `json:"images"`
		} `json:"messages"`
	}
	var chat llmtest.Request
	for _, r := range s.Requests() {
		if r.Path == "/api/chat" {
			chat = r
		}
	}
	if err := json.Unmarshal(chat.Body, &body); err != nil {
		t.Fatal(err)
	}
	msg := body.Messages[len(body.Messages)-1]
	if msg.Content != "what is wrong?" || len(msg.Images) != 1 || msg.Images[0] != base64.StdEncoding.EncodeToString(shot.Data) {
		t.Errorf("message = %q with %d images, want the text and the image in base64", msg.Content, len(msg.Images))
	}
}

// TestImageSpecAsksTheServer: /api/show's capabilities say whether the
// model reads images, whatever its name; asked once.
func TestImageSpecAsksTheServer(t *testing.T) {
	s := llmtest.NewOllamaServer(t, []llmtest.OllamaModel{
		{Name: "seer:latest", Max: 131072, Vision: true}, // a name no table knows
		{Name: "qwen3:latest", Max: 40960},
	})
	seer, _ := ollama.New(ollama.Options{Model: "seer", BaseURL: s.URL})
	qwen, _ := ollama.New(ollama.Options{Model: "qwen3", BaseURL: s.URL})
	yes := true
	forced, _ := ollama.New(ollama.Options{Model: "qwen3", BaseURL: s.URL, Images: &yes})
	if spec := seer.ImageSpec(t.Context()); !spec.Accepts || spec.MaxEdge != 1024 {
		t.Errorf("seer (vision): %+v, want it to take images", spec)
	}
	if spec := qwen.ImageSpec(t.Context()); spec.Accepts {
		t.Errorf("qwen3 (no vision): %+v, want no images", spec)
	}
	if !forced.ImageSpec(t.Context()).Accepts {
		t.Error("images = true in the configuration did not win")
	}
	s.Close()
	if spec := seer.ImageSpec(t.Context()); !spec.Accepts {
		t.Errorf("asked again once the server is gone: %+v; the first answer should be kept", spec)
	}
}

// TestImageSpecWithoutServer falls back to the family table.
func TestImageSpecWithoutServer(t *testing.T) {
	for _, tc := range []struct {
		model string
		want  bool
	}{{"llava:13b", true}, {"qwen2.5vl:7b", true}, {"llama3.2-vision", true}, {"qwen3", false}} {
		m, err := ollama.New(ollama.Options{Model: tc.model, BaseURL: "http://127.0.0.1:1"})
		if err != nil {
			t.Fatal(err)
		}
		if s := m.ImageSpec(t.Context()); s.Accepts != tc.want {
			t.Errorf("%s: accepts %v (%s), want %v", tc.model, s.Accepts, s.Why, tc.want)
		}
	}
}
