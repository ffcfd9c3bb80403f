package web

import (
	"context"
	_ "embed"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/agentcli/agent/internal/termtext"
	"github.com/agentcli/agent/tools"
)

//go:embed web_fetch.md
var description string

// Name is the tool's name in the catalog.
const Name = "web_fetch"

// The limits of a fetch when Options leave them unset.
const (
	DefaultMaxBytes     = 5 << 20          // bytes of a page read at most
	DefaultMaxText      = 100_000          // bytes of text returned at most
	DefaultTimeout      = 30 * time.Second // a whole fetch, redirects included
	DefaultHopTimeout   = 15 * time.Second // connecting to one hop, TLS, its headers
	DefaultMaxRedirects = 5
)

// Options configure the tool.
type Options struct {
	// AllowHosts are the user's web.allow_hosts ("docs.internal",
	// "localhost:8080"): fetched without asking, and reachable at a
	// private or local address. From the user's own config only.
	AllowHosts []string
	// UserAgent names the agent to the server.
	UserAgent string
	// MaxBytes, MaxText, Timeout, HopTimeout and MaxRedirects bound a
	// fetch; zero means the Default.
	MaxBytes     int64
	MaxText      int
	Timeout      time.Duration
	HopTimeout   time.Duration
	MaxRedirects int
	// Resolve looks a host name up; nil uses the system's resolver.
	// Tests bind it, so that their names resolve to the addresses they
	// check.
	Resolve func(ctx context.Context, host string) ([]netip.Addr, error)
	// Dial connects to an address that passed the checks; nil uses a
	// net.Dialer that checks it once more. Tests bind it so that nothing
	// can leave the machine even if a check failed.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
}

// Args are web_fetch's parameters.
type Args struct {
	URL string `json:"url" jsonschema:"the http(s) URL"`
}

// Tool is web_fetch. Its calls reach outside the machine, so it counts
// as a write for approval; it implements tools.Previewer (the question
// names the host, and "always" covers that host) and the loop's
// auto-allow hook for the user's allowed hosts.
type Tool struct {
	tools.Tool
	opts   Options
	allow  hostList
	client *http.Client
}

// New returns web_fetch with opts.
func New(opts Options) *Tool {
	opts = opts.withDefaults()
	t := &Tool{opts: opts, allow: hostList(opts.AllowHosts)}
	t.client = newClient(opts, t.allow, t.checkRedirect)
	t.Tool = tools.New(Name, description, t.fetch, tools.Writes(), tools.NotServed(), tools.OnDemand())
	return t
}

// withDefaults is o with its unset bounds at their Default.
func (o Options) withDefaults() Options {
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.MaxText <= 0 {
		o.MaxText = DefaultMaxText
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.HopTimeout <= 0 {
		o.HopTimeout = DefaultHopTimeout
	}
	if o.MaxRedirects <= 0 {
		o.MaxRedirects = DefaultMaxRedirects
	}
	if o.UserAgent == "" {
		o.UserAgent = "agent-web-fetch"
	}
	return o
}

// newClient is the HTTP client of the web tools: every connection
// through the address checks (allowing the hosts of allow), no proxy,
// no cookies, one connection per request, each redirect judged by
// checkRedirect.
func newClient(opts Options, allow hostList, checkRedirect func(*http.Request, []*http.Request) error) *http.Client {
	d := &dialer{allow: allow, resolve: opts.Resolve, dial: systemDial(net.Dialer{Timeout: opts.HopTimeout})}
	if d.resolve == nil {
		d.resolve = systemResolve
	}
	if opts.Dial != nil {
		d.dial = func(ctx context.Context, network, addr string, _ bool) (net.Conn, error) {
			return opts.Dial(ctx, network, addr)
		}
	}
	return &http.Client{
		Transport: &http.Transport{
			// No proxy from the environment: a proxy would resolve and
			// connect on our behalf, past every address check here.
			Proxy:                  nil,
			DialContext:            d.DialContext,
			ForceAttemptHTTP2:      true,
			TLSHandshakeTimeout:    opts.HopTimeout,
			ResponseHeaderTimeout:  opts.HopTimeout,
			MaxResponseHeaderBytes: 64 << 10,
			// One request, one connection: nothing idles between calls.
			DisableKeepAlives: true,
		},
		CheckRedirect: checkRedirect,
		// No Jar: cookies are neither kept nor sent.
	}
}

// AsksInPlan marks web_fetch for the loop: a fetch changes nothing, so
// plan mode asks about it instead of refusing it.
func (t *Tool) AsksInPlan() bool { return true }

// Allowed reports whether the call runs without asking: its host is in
// the user's web.allow_hosts.
func (t *Tool) Allowed(in tools.Input) bool {
	raw, _ := in.Values["url"].(string)
	u, res := t.check(raw)
	return res == nil && t.allow.allows(u.Hostname(), port(u))
}

// Preview names the URL and its host; "always" covers that host. A URL
// that would be refused is answered without asking. The host is not
// looked up here: a lookup is already traffic, and the address is checked
// when the fetch connects.
func (t *Tool) Preview(_ context.Context, in tools.Input) (tools.Preview, *tools.Result, error) {
	raw, _ := in.Values["url"].(string)
	u, res := t.check(raw)
	if res != nil {
		return tools.Preview{}, res, nil
	}
	host := hostKey(u)
	return tools.Preview{
		Summary: "fetch " + shortURL(u),
		Lines: []string{
			"url: " + u.String(),
			"host: " + host + " (a private or local address is refused)",
			"sends: a GET with no cookies or credentials",
		},
		Scope:      Name + ":" + host,
		ScopeLabel: "fetches from " + host,
	}, nil, nil
}

// check parses and vets a URL as given by the model: http(s), a host,
// no credentials, no address that is not public (unless allowed).
func (t *Tool) check(raw string) (*url.URL, *tools.Result) {
	raw = strings.TrimSpace(raw)
	if len(raw) > 8192 {
		res := tools.Errorf(tools.CodeSchemaInvalid, "url is %d bytes long; give a URL of at most 8192 bytes", len(raw))
		return nil, &res
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		res := tools.Errorf(tools.CodeSchemaInvalid, "url %q is not a full URL; give one like https://example.com/page", termtext.RunePrefix(raw, 200))
		return nil, &res
	}
	if err := vetURL(u); err != nil {
		res := tools.Errorf(tools.CodePolicyDenied, "web_fetch refused %s: %v", termtext.RunePrefix(raw, 200), err)
		return nil, &res
	}
	if u.Opaque != "" || u.Hostname() == "" {
		res := tools.Errorf(tools.CodeSchemaInvalid, "url %q has no host; give one like https://example.com/page", termtext.RunePrefix(raw, 200))
		return nil, &res
	}
	if ip, ok := parseHostIP(u.Hostname()); ok {
		if err := checkAddr(u.Hostname(), ip, t.allow.allows(u.Hostname(), port(u))); err != nil {
			res := refusal(raw, err)
			return nil, &res
		}
	}
	return u, nil
}

// vetURL refuses what no hop may be: another scheme, credentials.
func vetURL(u *url.URL) error {
	if s := strings.ToLower(u.Scheme); s != "http" && s != "https" {
		return blocked("only http and https URLs are fetched, not %s:", s)
	}
	if u.User != nil {
		return blocked("the URL holds credentials (user@ or user:password@), which are never sent")
	}
	return nil
}

// checkRedirect vets each hop of a redirect; its addresses are checked
// when it connects.
func (t *Tool) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) > t.opts.MaxRedirects {
		return errTooManyRedirects
	}
	return vetURL(req.URL)
}

// port is u's port, or its scheme's default.
func port(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if strings.EqualFold(u.Scheme, "https") {
		return "443"
	}
	return "80"
}

// hostKey names u's host for approval: the host, with its port when it
// is not the scheme's default.
func hostKey(u *url.URL) string {
	h := canonicalHost(u.Hostname())
	if strings.Contains(h, ":") {
		h = "[" + h + "]"
	}
	if p := u.Port(); p != "" && p != port(&url.URL{Scheme: u.Scheme}) {
		h += ":" + p
	}
	return h
}

// shortURL is u without its query, cut for a title line.
func shortURL(u *url.URL) string {
	s := strings.ToLower(u.Scheme) + "://" + hostKey(u) + u.EscapedPath()
	if u.RawQuery != "" {
		s += "?…"
	}
	if short := termtext.RunePrefix(s, 100); short != s {
		return short + "…"
	}
	return s
}
