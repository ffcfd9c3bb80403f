package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// Window is a model's context window as its server tells (or sets) it.
type Window struct {
	// Tokens is the window; 0 means unknown, and nothing is cut.
	Tokens int
	// Source says where it comes from ("llama.cpp /props"), for
	// messages.
	Source string
	// Note is a line for the user when the window is a guess.
	Note string
	// Hint says how to get a larger window, for the error when it is too
	// small.
	Hint string
}

// Windowed is a model whose server can say its context window, or sets
// it per request (Ollama's num_ctx).
type Windowed interface {
	// Window returns the model's window for a conversation that would
	// like need tokens (0: no wish). A server with a fixed window ignores
	// need; a model whose window is chosen per request chooses it at the
	// first call and keeps it for every request after, so that the
	// server never reloads the model mid-conversation. Each question to
	// the server is bounded by WindowTimeout; a server that does not
	// answer gives what can be assumed, with a Note.
	Window(ctx context.Context, need int) Window
}

// WindowTimeout bounds each question a model asks its server about the
// window: a local server answers in milliseconds, and a start-up should
// not wait long for one that does not.
const WindowTimeout = time.Second

// AskJSON sends one request to a server's side endpoint (not a
// generation: /props, /api/show) with WindowTimeout, and decodes a 200
// answer's JSON into v. body, when not nil, is sent as JSON.
func AskJSON(ctx context.Context, client *http.Client, method, url string, body any, v any) error {
	ctx, cancel := context.WithTimeout(ctx, WindowTimeout)
	defer cancel()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return &APIError{Status: resp.StatusCode}
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 4<<20)).Decode(v); err != nil {
		return fmt.Errorf("%s: %w", url, err)
	}
	return nil
}
