package llm

import "strings"

// visionFamilies are name fragments of model families that read images,
// as hosted services (OpenAI, OpenRouter, Venice) and local servers
// (Ollama, llama.cpp) name them. A model whose name holds one of them
// and none of textOnly is taken to see images. The table changes with
// new models: the configuration's images key overrides it.
var visionFamilies = []string{
	// OpenAI
	"gpt-4o", "gpt-4.1", "gpt-4.5", "gpt-4-turbo", "gpt-4-vision", "gpt-5", "chatgpt-4o", "o1", "o3", "o4",
	// Anthropic (Claude 3 and later), Google
	"claude-3", "claude-sonnet-4", "claude-opus-4", "claude-haiku-4", "claude-4", "gemini", "gemma-3", "gemma3",
	// open models with a vision encoder
	"llava", "bakllava", "vision", "-vl", "vl-", "qwen2.5vl", "qwen3vl", "pixtral", "llama-4", "llama4",
	"minicpm-v", "moondream", "mistral-small-3.1", "mistral-small3.1", "mistral-small-3.2", "mistral-small3.2",
	"mistral-medium", "internvl", "molmo", "phi-3.5-vision", "phi-4-multimodal", "grok-4",
}

// textOnly are fragments that mark a model of a vision family that
// reads no images: OpenAI's small reasoning models before o4, the open
// GPT models, embedding and speech models.
var textOnly = []string{"o1-mini", "o1-preview", "o3-mini", "gpt-oss", "embed", "tts", "whisper", "audio", "transcribe", "gemma3n:e"}

// KnownVision reports whether the model's name places it in a family
// that reads images (see visionFamilies). Unknown names are taken to
// read none: the model is told about an image in words, which costs
// nothing if it could have seen it, where an image sent to a model that
// cannot read it fails the request.
func KnownVision(model string) bool {
	m := strings.ToLower(model)
	if _, after, ok := strings.Cut(m, "/"); ok {
		m = after // "openai/gpt-4o", "google/gemini-2.5-flash"
	}
	for _, no := range textOnly {
		if strings.Contains(m, no) {
			return false
		}
	}
	for _, f := range visionFamilies {
		// Two-letter names (o1, o3) only at the start: "llama3.3" is
		// not o3.
		if strings.HasPrefix(m, f) || len(f) > 2 && strings.Contains(m, f) {
			return true
		}
	}
	return false
}
