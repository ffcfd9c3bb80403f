package config

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// Web configures web_fetch and web_search. It is taken only from the
// user's own config file (a project's [web] table is ignored, see
// trust.go): an allowed host is fetched without asking, even at a private
// address, and the search backend receives every query, so a cloned
// project must not be able to choose either.
type Web struct {
	// AllowHosts are hosts ("docs.internal") or host:port pairs
	// ("localhost:8080") fetched without asking, and reachable even at a
	// loopback or private address.
	AllowHosts []string `toml:"allow_hosts"`
	// Search is web_search's backend: "searxng", "brave" or "tavily";
	// "" offers no web_search.
	Search string `toml:"search"`
	// SearchURL is the SearXNG instance's base URL
	// ("https://search.example.org"); the other backends have their own.
	SearchURL string `toml:"search_url"`

	// Resolved by Load from the environment, never read from files.

	// SearchKey is Brave's or Tavily's API key, "" when not set, and
	// SearchKeyEnv the variable it comes (or would come) from.
	SearchKey    string `toml:"-"`
	SearchKeyEnv string `toml:"-"`
}

// The variables web_search's keyed backends take their API key from.
const (
	BraveKeyEnv  = "BRAVE_API_KEY"
	TavilyKeyEnv = "TAVILY_API_KEY"
)

// searchKeyEnvs are the key variables of the search backends, by
// web.search.
var searchKeyEnvs = map[string]string{"brave": BraveKeyEnv, "tavily": TavilyKeyEnv}

func (c *Config) validateWeb() error {
	for _, h := range c.Web.AllowHosts {
		if h == "" || strings.ContainsAny(h, "/ \t@?#*") {
			return fmt.Errorf("web.allow_hosts entry %s (from %s): write a host like \"docs.internal\" or host:port like \"localhost:8080\", without a scheme, path or wildcard", strconv.Quote(h), c.Origin("web.allow_hosts"))
		}
	}
	w := c.Web
	switch w.Search {
	case "", "brave", "tavily":
		if w.SearchURL != "" {
			return fmt.Errorf("web.search_url (from %s) is the address of a SearXNG instance: set web.search = \"searxng\" with it, or remove it", c.Origin("web.search_url"))
		}
	case "searxng":
		u, err := url.Parse(w.SearchURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
			return fmt.Errorf("web.search = \"searxng\" needs web.search_url, the instance's http or https address without credentials, like \"https://search.example.org\" (not %s)", strconv.Quote(w.SearchURL))
		}
	default:
		return fmt.Errorf("web.search = %s (from %s): use searxng, brave or tavily", strconv.Quote(w.Search), c.Origin("web.search"))
	}
	return nil
}

// applyWebEnv reads the search backend's key from its variable.
func (c *Config) applyWebEnv(env map[string]string) {
	name := searchKeyEnvs[c.Web.Search]
	c.Web.SearchKeyEnv = name
	if name != "" {
		c.Web.SearchKey = strings.TrimSpace(env[name])
	}
}

// writeWeb prints the [web] table for Write; the search key only
// masked, in a comment.
func (c *Config) writeWeb(b *strings.Builder, line func(key, value string)) {
	q := make([]string, len(c.Web.AllowHosts))
	for i, h := range c.Web.AllowHosts {
		q[i] = strconv.Quote(h)
	}
	b.WriteString("\n[web]                                        # from your own config only\n")
	line("web.allow_hosts", "["+strings.Join(q, ", ")+"]")
	line("web.search", strconv.Quote(c.Web.Search))
	if c.Web.SearchURL != "" {
		line("web.search_url", strconv.Quote(c.Web.SearchURL))
	}
	switch {
	case c.Web.SearchKeyEnv == "":
	case c.Web.SearchKey != "":
		fmt.Fprintf(b, "# search key: %s (from %s)\n", Mask(c.Web.SearchKey), c.Web.SearchKeyEnv)
	default:
		fmt.Fprintf(b, "# search key: not set (set %s; web_search is not offered without it)\n", c.Web.SearchKeyEnv)
	}
}
