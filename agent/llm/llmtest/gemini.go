package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent/llm"
)

// NewGeminiServer starts a fake Gemini API (generateContent, and
// streamGenerateContent with alt=sse) that plays answers in order. Point
// the genai SDK at it with HTTPOptions.BaseURL = s.URL, or the agent with
// GOOGLE_GEMINI_BASE_URL (see Env).
func NewGeminiServer(t testing.TB, answers ...Answer) *Server {
	t.Helper()
	return newServer(t, geminiProtocol{}, answers)
}

type geminiProtocol struct{}

func (geminiProtocol) name() string     { return "gemini" }
func (geminiProtocol) basePath() string { return "" }

func (geminiProtocol) env(s *Server) []string {
	return []string{"GOOGLE_GEMINI_BASE_URL=" + s.URL, "GEMINI_API_KEY=llmtest-key"}
}

func (geminiProtocol) match(r *http.Request) (bool, bool) {
	if r.Method != http.MethodPost || !strings.Contains(r.URL.Path, "/models/") {
		return false, false
	}
	switch {
	case strings.HasSuffix(r.URL.Path, ":streamGenerateContent"):
		return r.URL.Query().Get("alt") == "sse", true
	case strings.HasSuffix(r.URL.Path, ":generateContent"):
		return true, false
	}
	return false, false
}

type geminiContent struct {
	Role  string `json:"role,omitempty"`
	Parts []struct {
		Text       string `json:"text"`
		Thought    bool   `json:"thought,omitempty"`
		InlineData *struct {
			MIMEType string `json:"mimeType"`
			Data     string `json:"data"`
		} `json:"inlineData,omitempty"`
	} `json:"parts"`
}

// images decodes the content's inline images (the formats Gemini reads:
// no GIF).
func (c *geminiContent) images() ([]llm.Image, error) {
	var out []llm.Image
	for _, p := range c.Parts {
		if p.InlineData == nil {
			continue
		}
		img, err := decodeImage(p.InlineData.MIMEType, p.InlineData.Data, "image/png", "image/jpeg", "image/webp", "image/heic", "image/heif")
		if err != nil {
			return nil, err
		}
		out = append(out, img)
	}
	return out, nil
}

func (c *geminiContent) text() string {
	var b strings.Builder
	for _, p := range c.Parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

func (geminiProtocol) decode(body []byte, req *Request) error {
	_, rest, _ := strings.Cut(req.Path, "/models/")
	req.Model, _, _ = strings.Cut(rest, ":")
	var in struct {
		Contents          []geminiContent `json:"contents"`
		SystemInstruction *geminiContent  `json:"systemInstruction"`
		GenerationConfig  struct {
			StopSequences   []string `json:"stopSequences"`
			MaxOutputTokens int      `json:"maxOutputTokens"`
			ThinkingConfig  *struct {
				ThinkingBudget  *int `json:"thinkingBudget"`
				IncludeThoughts bool `json:"includeThoughts"`
			} `json:"thinkingConfig"`
		} `json:"generationConfig"`
	}
	if err := json.Unmarshal(body, &in); err != nil {
		return err
	}
	req.ThinkingBudget = -1
	if tc := in.GenerationConfig.ThinkingConfig; tc != nil {
		req.IncludeThoughts = tc.IncludeThoughts
		if tc.ThinkingBudget != nil {
			if b := *tc.ThinkingBudget; b < -1 || b > 32768 {
				return fmt.Errorf("thinkingBudget %d is out of range", b)
			}
			req.ThinkingBudget = *tc.ThinkingBudget
		}
	}
	if in.SystemInstruction != nil {
		req.System = in.SystemInstruction.text()
	}
	for _, c := range in.Contents {
		role := llm.User
		switch c.Role {
		case "user":
		case "model":
			role = llm.Assistant
		default:
			return fmt.Errorf("content role %q is neither user nor model", c.Role)
		}
		imgs, err := c.images()
		if err != nil {
			return err
		}
		if len(imgs) > 0 && role != llm.User {
			return fmt.Errorf("a model turn holds an image")
		}
		req.Messages = append(req.Messages, llm.Message{Role: role, Text: c.text(), Images: imgs})
	}
	if len(req.Messages) == 0 {
		return fmt.Errorf("contents is empty")
	}
	req.Stop = in.GenerationConfig.StopSequences
	if len(req.Stop) > 5 {
		return fmt.Errorf("%d stop sequences; the API allows at most 5", len(req.Stop))
	}
	req.MaxTokens = in.GenerationConfig.MaxOutputTokens
	return nil
}

func (geminiProtocol) errorBody(status int, msg string) string {
	return mustJSON(map[string]any{"error": map[string]any{"code": status, "message": msg, "status": statusName(status)}})
}

func (geminiProtocol) errorEvent(status int, msg string) string {
	return sseCRLF(geminiProtocol{}.errorBody(status, msg))
}

func (geminiProtocol) malformed() string {
	return sseCRLF(`{"candidates": [{"content": {"parts": [{"text": "unterminated`)
}

// response is one GenerateContentResponse: text and, when final, the finish
// reason and usage.
func (geminiProtocol) response(req Request, a Answer, text string, final bool) string {
	cand := map[string]any{
		"content": map[string]any{"role": "model", "parts": []map[string]any{{"text": text}}},
		"index":   0,
	}
	resp := map[string]any{"candidates": []any{cand}, "modelVersion": req.Model, "responseId": "llmtest"}
	if final {
		reason := "STOP"
		if a.finish() == "length" {
			reason = "MAX_TOKENS"
		}
		cand["finishReason"] = reason
		u := a.usage()
		resp["usageMetadata"] = map[string]any{
			"promptTokenCount":        u.InputTokens,
			"candidatesTokenCount":    u.OutputTokens,
			"cachedContentTokenCount": u.CachedTokens,
			"thoughtsTokenCount":      u.ThinkingTokens,
			"totalTokenCount":         u.InputTokens + u.OutputTokens + u.ThinkingTokens,
		}
	}
	return mustJSON(resp)
}

func (p geminiProtocol) unary(req Request, a Answer) string {
	return p.response(req, a, a.text(), true)
}

// streamStart sends the thoughts as parts marked thought: true.
func (geminiProtocol) streamStart(req Request, a Answer) []string {
	var evs []string
	for _, t := range a.Thoughts {
		cand := map[string]any{
			"content": map[string]any{"role": "model", "parts": []map[string]any{{"text": t, "thought": true}}},
			"index":   0,
		}
		evs = append(evs, sseCRLF(mustJSON(map[string]any{"candidates": []any{cand}, "modelVersion": req.Model, "responseId": "llmtest"})))
	}
	return evs
}

func (p geminiProtocol) streamChunk(req Request, a Answer, _ int, text string) string {
	return sseCRLF(p.response(req, a, text, false))
}

// streamEnd sends the final response: Gemini puts the finish reason and
// the usage on a last chunk, here with empty text.
func (p geminiProtocol) streamEnd(req Request, a Answer) []string {
	return []string{sseCRLF(p.response(req, a, "", true))}
}

// sseCRLF frames an event the way the Gemini API does, with \r\n\r\n.
func sseCRLF(data string) string { return "data: " + data + "\r\n\r\n" }

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only maps of plain values are marshalled here
	}
	return string(b)
}

// GeminiKeyInvalid is Gemini's real answer to a wrong API key: HTTP 400,
// status INVALID_ARGUMENT, and an ErrorInfo detail with the reason
// API_KEY_INVALID (not a 401).
func GeminiKeyInvalid() Answer {
	return Raw(400, `{
  "error": {
    "code": 400,
    "message": "API key not valid. Please pass a valid API key.",
    "status": "INVALID_ARGUMENT",
    "details": [
      {
        "@type": "type.googleapis.com/google.rpc.ErrorInfo",
        "reason": "API_KEY_INVALID",
        "domain": "googleapis.com",
        "metadata": {
          "service": "generativelanguage.googleapis.com"
        }
      },
      {
        "@type": "type.googleapis.com/google.rpc.LocalizedMessage",
        "locale": "en-US",
        "message": "API key not valid. Please pass a valid API key."
      }
    ]
  }
}
`)
}
