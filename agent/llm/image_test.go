package llm

import (
	"context"
	"iter"
	"testing"
)

func TestKnownVision(t *testing.T) {
	for model, want := range map[string]bool{
		"gpt-4o-mini": true, "gpt-4.1": true, "o3": true, "o4-mini": true, "o3-mini": false, "o1-mini": false,
		"gpt-3.5-turbo": false, "gpt-oss:20b": false,
		"claude-3-5-sonnet": true, "anthropic/claude-opus-4.1": true, "claude-2.1": false,
		"google/gemini-2.5-flash": true, "gemma3:27b": true,
		"llava:7b": true, "llama3.2-vision:11b": true, "qwen2.5vl:7b": true, "Qwen/Qwen2.5-VL-72B-Instruct": true,
		"llama3.3:70b": false, "qwen3": false, "llama-3.3-70b": false, "default": false, "mistral-small3.1": true,
	} {
		if got := KnownVision(model); got != want {
			t.Errorf("KnownVision(%q) = %v, want %v", model, got, want)
		}
	}
}

func TestEstimateRequestCountsImages(t *testing.T) {
	text := Request{Messages: []Message{{Role: User, Text: "look"}}}
	with := Request{Messages: []Message{{Role: User, Text: "look", Images: []Image{{Width: 1000, Height: 750}}}}}
	if got, want := EstimateRequest(with)-EstimateRequest(text), DefaultImageTokens(1000, 750); got != want {
		t.Errorf("an image adds %d tokens by default, want %d", got, want)
	}
	rule := func(w, h int) int { return 7 }
	if got := EstimateRequestWith(with, rule) - EstimateRequest(text); got != 7 {
		t.Errorf("an image adds %d tokens under a model's rule, want 7", got)
	}
}

type stubModel struct{ name string }

func (m stubModel) Stream(context.Context, Request) iter.Seq2[Chunk, error] { return nil }
func (m stubModel) Name() string                                            { return m.name }

type seeing struct{ stubModel }

func (seeing) ImageSpec(context.Context) ImageSpec { return ImageSpec{Accepts: true, MaxEdge: 99} }

type wrapper struct {
	stubModel
	inner Model
}

func (w wrapper) Unwrap() Model { return w.inner }

func TestImageSpecOf(t *testing.T) {
	if s := ImageSpecOf(t.Context(), stubModel{"plain"}); s.Accepts || s.Why == "" {
		t.Errorf("a model that says nothing: %+v, want no images and a reason", s)
	}
	if s := ImageSpecOf(t.Context(), wrapper{stubModel{"spinner"}, seeing{}}); !s.Accepts || s.MaxEdge != 99 {
		t.Errorf("through a wrapper: %+v, want the wrapped model's spec", s)
	}
	no := false
	if s := ImageOverride(ImageSpec{Accepts: true}, &no); s.Accepts {
		t.Error("images = false did not win")
	}
}
