package config

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"time"
)

// ProbeTimeout bounds the question to a local Ollama: a server on
// localhost answers in milliseconds, and nobody should wait for one that
// is not there.
const ProbeTimeout = 400 * time.Millisecond

// OllamaProbe returns an Input.Probe that asks Ollama's /api/tags (at the
// root of the given OpenAI-style base URL) with a short timeout, using
// client (nil means a plain client).
func OllamaProbe(ctx context.Context, client *http.Client) func(baseURL string) ([]string, bool) {
	if client == nil {
		client = &http.Client{}
	}
	return func(baseURL string) ([]string, bool) {
		ctx, cancel := context.WithTimeout(ctx, ProbeTimeout)
		defer cancel()
		root := strings.TrimSuffix(strings.TrimRight(baseURL, "/"), "/v1")
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, root+"/api/tags", nil)
		if err != nil {
			return nil, false
		}
		resp, err := client.Do(req)
		if err != nil {
			return nil, false
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return nil, false
		}
		var tags struct {
			Models []struct {
				Name string `json:"name"`
			} `json:"models"`
		}
		if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&tags); err != nil {
			return nil, false
		}
		names := make([]string, 0, len(tags.Models))
		for _, m := range tags.Models {
			if m.Name != "" {
				names = append(names, m.Name)
			}
		}
		return names, true
	}
}
