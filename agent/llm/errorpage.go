package llm

import (
	"bytes"
	"encoding/json"
	"html"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/agentcli/agent/internal/backoff"
	"github.com/agentcli/agent/internal/termtext"
)

// pageLimit bounds what is read of an error answer to judge it: enough
// for the <title> of any real error page.
const pageLimit = 32 << 10

// Client returns a client like c (nil: a fresh default one) whose
// transport turns answers that are not the API's own into an *APIError
// before the provider's client sees them: an HTML page (a proxy's 502, a
// login portal) becomes its status and <title>, and an error body that
// is plain text (or a bare JSON string) becomes that text. JSON error
// bodies pass through for the client to read (PostJSON, or Gemini's
// SDK). Every provider package builds its client on it, so that the
// wires word these failures alike. The transport is a clone of
// http.DefaultTransport unless c has its own: proxies come from the
// environment (HTTPS_PROXY, NO_PROXY) as they did for the SDKs.
func Client(c *http.Client) *http.Client {
	return WrapTransport(c, func(base http.RoundTripper) http.RoundTripper { return pageTransport{base: base} })
}

// WrapTransport returns a copy of c (or of a default client) whose
// transport is wrap(c's transport, or a clone of the default one).
func WrapTransport(c *http.Client, wrap func(http.RoundTripper) http.RoundTripper) *http.Client {
	var out http.Client
	if c != nil {
		out = *c
	}
	base := out.Transport
	if base == nil {
		base = http.DefaultTransport.(*http.Transport).Clone()
	}
	out.Transport = wrap(base)
	return &out
}

type pageTransport struct{ base http.RoundTripper }

func (t pageTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(r)
	if err != nil || resp == nil {
		return resp, err
	}
	htmlType := isHTMLType(resp.Header.Get("Content-Type"))
	if resp.StatusCode < 400 && !htmlType {
		return resp, nil
	}
	head, rerr := io.ReadAll(io.LimitReader(resp.Body, pageLimit))
	if rerr != nil && len(head) == 0 {
		return resp, nil // let the client meet the broken body itself
	}
	kind := bodyKind(head, htmlType)
	if kind == bodyJSON {
		// The API's own answer: give the client the whole body back.
		resp.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(head), resp.Body), resp.Body}
		return resp, nil
	}
	resp.Body.Close()
	e := &APIError{Status: resp.StatusCode, RetryAfter: backoff.RetryAfter(resp.Header, time.Now())}
	switch {
	case kind == bodyHTML:
		e.HTML, e.Message = true, pageTitle(head, resp.StatusCode)
	case json.Unmarshal(head, &e.Message) == nil:
		// A bare JSON string: its text, without the quotes.
	default:
		e.Message = string(head)
	}
	return nil, e
}

type bodyType int

const (
	bodyJSON bodyType = iota
	bodyHTML
	bodyText
)

// bodyKind sorts an error body by what it starts with. An empty body is
// left to the client, which words the bare status itself.
func bodyKind(head []byte, htmlType bool) bodyType {
	s := bytes.TrimLeft(head, " \t\r\n\ufeff")
	switch {
	case htmlType || looksHTML(s):
		return bodyHTML
	case len(s) == 0 || s[0] == '{' || s[0] == '[':
		return bodyJSON
	}
	return bodyText
}

func isHTMLType(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && (mt == "text/html" || mt == "application/xhtml+xml")
}

func looksHTML(s []byte) bool {
	for _, p := range []string{"<!doctype", "<html", "<head", "<body", "<title"} {
		if len(s) >= len(p) && strings.EqualFold(string(s[:len(p)]), p) {
			return true
		}
	}
	return false
}

// pageTitle is the text of the page's <title>, or the status's name when
// it has none; a title that only repeats the status code ("502 Bad
// Gateway") loses the number, which the message gives already.
func pageTitle(page []byte, status int) string {
	title := ""
	lower := bytes.ToLower(page)
	if i := bytes.Index(lower, []byte("<title")); i >= 0 {
		if j := bytes.IndexByte(lower[i:], '>'); j >= 0 {
			start := i + j + 1
			end := bytes.Index(lower[start:], []byte("</title"))
			if end < 0 {
				end = min(len(page)-start, 200)
			}
			title = html.UnescapeString(string(page[start : start+end]))
		}
	}
	title = termtext.Line(title, 100)
	title = strings.TrimSpace(strings.TrimPrefix(title, strconv.Itoa(status)))
	title = strings.TrimLeft(title, ":-– ")
	if title == "" {
		title = http.StatusText(status)
	}
	if title == "" {
		title = "an error page"
	}
	return title
}
