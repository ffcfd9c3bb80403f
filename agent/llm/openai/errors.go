package openai

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/openai/openai-go/v3/packages/ssestream"

	"github.com/agentcli/agent/agent/llm"
)

var timeNow = time.Now

// streamError turns an error event inside a stream into an *llm.APIError.
// OpenAI sends no status with it; OpenRouter puts one in error.code. A
// failure without a status counts as the server's (500), so that it is
// retried when no text has been yielded yet.
func streamError(se *ssestream.StreamError) error {
	var body struct {
		Error struct {
			Code    json.RawMessage `json:"code"`
			Message string          `json:"message"`
		} `json:"error"`
	}
	status := http.StatusInternalServerError
	msg := se.Message
	if json.Unmarshal(se.Event.Data, &body) == nil {
		var code int
		if json.Unmarshal(body.Error.Code, &code) == nil && code >= 400 && code <= 599 {
			status = code
		}
		if body.Error.Message != "" {
			msg = body.Error.Message
		}
	}
	return &llm.APIError{Status: status, Message: msg}
}
