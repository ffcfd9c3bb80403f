package config

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"time"
)

// ProbeTimeout bounds the question to a local server: one on this
// machine answers in milliseconds, and nobody should wait for one that
// is not there.
const ProbeTimeout = 400 * time.Millisecond

// LocalProbe returns an Input.Probe that asks the local server of preset
// p at baseURL, with ProbeTimeout, whether it answers and which models it
// has: Ollama's GET /api/tags, an OpenAI-compatible server's GET
// /models. client nil means a plain client.
func LocalProbe(ctx context.Context, client *http.Client) func(p Preset, baseURL string) ([]string, bool) {
	if client == nil {
		client = &http.Client{}
	}
	return func(p Preset, baseURL string) ([]string, bool) {
		base := strings.TrimRight(baseURL, "/")
		if p.Family == FamilyOllama {
			var tags struct {
				Models []struct {
					Name string `json:"name"`
				} `json:"models"`
			}
			// A server that answers every path (a web app on the
			// port) has no "models" list: not Ollama.
			if !getJSON(ctx, client, strings.TrimSuffix(base, "/v1")+"/api/tags", &tags) || tags.Models == nil {
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
		var list struct {
			Data []struct {
				ID string `json:"id"`
			} `json:"data"`
		}
		if !getJSON(ctx, client, base+"/models", &list) || list.Data == nil {
			return nil, false
		}
		names := make([]string, 0, len(list.Data))
		for _, m := range list.Data {
			if m.ID != "" {
				names = append(names, m.ID)
			}
		}
		return names, true
	}
}

// getJSON asks url with ProbeTimeout and decodes a 200 answer's JSON.
func getJSON(ctx context.Context, client *http.Client, url string, v any) bool {
	ctx, cancel := context.WithTimeout(ctx, ProbeTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return false
	}
	resp, err := client.Do(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return false
	}
	return json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(v) == nil
}
