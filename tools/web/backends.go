package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/agentcli/agent/internal/termtext"
)

// The search backends, as web.search names them.
const (
	SearXNG = "searxng"
	Brave   = "brave"
	Tavily  = "tavily"
)

// result is one search result as a backend gives it.
type result struct {
	title, url, snippet string
}

// backend is one search API: where it is asked, how, and how its answer
// reads.
type backend struct {
	name string // as people know it
	// keyed backends take an API key, which a refusal names.
	keyed bool
	// endpoint is the address asked, from the configured URL.
	endpoint func(configured string) (*url.URL, error)
	request  func(ctx context.Context, endpoint *url.URL, query string, count int, key string) (*http.Request, error)
	parse    func(body []byte) ([]result, error)
}

var backends = map[string]backend{
	SearXNG: {name: "SearXNG", endpoint: searxngEndpoint, request: searxngRequest, parse: searxngParse},
	Brave: {name: "Brave Search", keyed: true, endpoint: fixedEndpoint("https://api.search.brave.com/res/v1/web/search"),
		request: braveRequest, parse: braveParse},
	Tavily: {name: "Tavily", keyed: true, endpoint: fixedEndpoint("https://api.tavily.com/search"),
		request: tavilyRequest, parse: tavilyParse},
}

// searxngEndpoint is /search under the instance's base URL.
func searxngEndpoint(base string) (*url.URL, error) {
	if strings.TrimSpace(base) == "" {
		return nil, fmt.Errorf("SearXNG needs the instance's address (web.search_url)")
	}
	u, err := parseHTTP(base)
	if err != nil {
		return nil, err
	}
	return u.JoinPath("search"), nil
}

// fixedEndpoint is an API's own address, or the one given instead.
func fixedEndpoint(real string) func(string) (*url.URL, error) {
	return func(given string) (*url.URL, error) {
		if given == "" {
			given = real
		}
		return parseHTTP(given)
	}
}

// parseHTTP parses an http(s) URL with a host and no credentials.
func parseHTTP(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" || u.Opaque != "" {
		return nil, fmt.Errorf("search address %q is not a full http(s) URL", raw)
	}
	if err := vetURL(u); err != nil {
		return nil, fmt.Errorf("search address %q: %w", raw, err)
	}
	return u, nil
}

// searxngRequest asks GET /search?q=…&format=json. SearXNG takes no
// count: its first page is cut to it.
func searxngRequest(ctx context.Context, endpoint *url.URL, query string, _ int, _ string) (*http.Request, error) {
	u := *endpoint
	q := u.Query()
	q.Set("q", query)
	q.Set("format", "json")
	u.RawQuery = q.Encode()
	return http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
}

func searxngParse(body []byte) ([]result, error) {
	var answer struct {
		Results []struct {
			Title   string `json:"title"`
			URL     string `json:"url"`
			Content string `json:"content"`
		} `json:"results"`
	}
	if err := json.Unmarshal(body, &answer); err != nil {
		return nil, err
	}
	out := make([]result, len(answer.Results))
	for i, r := range answer.Results {
		out[i] = result{r.Title, r.URL, r.Content}
	}
	return out, nil
}

// braveRequest asks GET …/web/search?q=…&count=… with the key in
// X-Subscription-Token.
func braveRequest(ctx context.Context, endpoint *url.URL, query string, count int, key string) (*http.Request, error) {
	u := *endpoint
	q := u.Query()
	q.Set("q", query)
	q.Set("count", strconv.Itoa(count))
	u.RawQuery = q.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("X-Subscription-Token", strings.TrimSpace(key))
	return req, nil
}

func braveParse(body []byte) ([]result, error) {
	var answer struct {
		Web struct {
			Results []struct {
				Title       string `json:"title"`
				URL         string `json:"url"`
				Description string `json:"description"`
			} `json:"results"`
		} `json:"web"`
	}
	if err := json.Unmarshal(body, &answer); err != nil {
		return nil, err
	}
	out := make([]result, len(answer.Web.Results))
	for i, r := range answer.Web.Results {
		out[i] = result{r.Title, r.URL, r.Description}
	}
	return out, nil
}

// tavilyRequest asks POST /search with {query, max_results} and the key
// as a bearer token.
func tavilyRequest(ctx context.Context, endpoint *url.URL, query string, count int, key string) (*http.Request, error) {
	body, err := json.Marshal(struct {
		Query      string `json:"query"`
		MaxResults int    `json:"max_results"`
	}{query, count})
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint.String(), bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+strings.TrimSpace(key))
	return req, nil
}

func tavilyParse(body []byte) ([]result, error) {
	var answer struct {
		Results []struct {
			Title   string `json:"title"`
			URL     string `json:"url"`
			Content string `json:"content"`
		} `json:"results"`
	}
	if err := json.Unmarshal(body, &answer); err != nil {
		return nil, err
	}
	out := make([]result, len(answer.Results))
	for i, r := range answer.Results {
		out[i] = result{r.Title, r.URL, r.Content}
	}
	return out, nil
}

// clean makes a result fit to show: its title and snippet plain text on
// one line (the markup some backends put in, like Brave's <strong>,
// removed), control characters dropped, each cut to its bound; only an
// http(s) URL is kept, whole (ok is false for another).
func clean(r result) (result, bool) {
	u, err := url.Parse(strings.TrimSpace(r.url))
	if err != nil || u.Host == "" || vetURL(u) != nil {
		return result{}, false
	}
	r.url = termtext.Strip(u.String())
	r.title = plainLine(r.title, maxTitle)
	r.snippet = plainLine(r.snippet, maxSnippet)
	if r.title == "" {
		r.title = hostKey(u)
	}
	return r, true
}

// plainLine is text from a backend as one line of plain text of at most
// n bytes.
func plainLine(s string, n int) string {
	if strings.ContainsAny(s, "<&") {
		s = plainText(s)
	}
	return termtext.Clip(termtext.OneLine(termtext.Strip(s)), n)
}
