package config

import (
	"fmt"
	"strconv"
	"strings"
)

// Web configures web_fetch. It is taken only from the user's own config
// file (a project's [web] table is ignored, see trust.go): an allowed
// host is fetched without asking, even at a private address, so a cloned
// project must not be able to add its own.
type Web struct {
	// AllowHosts are hosts ("docs.internal") or host:port pairs
	// ("localhost:8080") fetched without asking, and reachable even at a
	// loopback or private address.
	AllowHosts []string `toml:"allow_hosts"`
}

func (c *Config) validateWeb() error {
	for _, h := range c.Web.AllowHosts {
		if h == "" || strings.ContainsAny(h, "/ \t@?#*") {
			return fmt.Errorf("web.allow_hosts entry %s (from %s): write a host like \"docs.internal\" or host:port like \"localhost:8080\", without a scheme, path or wildcard", strconv.Quote(h), c.Origin("web.allow_hosts"))
		}
	}
	return nil
}

// writeWeb prints the [web] table for Write.
func (c *Config) writeWeb(b *strings.Builder, line func(key, value string)) {
	q := make([]string, len(c.Web.AllowHosts))
	for i, h := range c.Web.AllowHosts {
		q[i] = strconv.Quote(h)
	}
	b.WriteString("\n[web]                                        # from your own config only\n")
	line("web.allow_hosts", "["+strings.Join(q, ", ")+"]")
}
