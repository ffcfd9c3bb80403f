package config

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"sync"
)

// resolveProvider fills Provider (choosing one if none is named), Family,
// BaseURL, Model, APIKey and KeyEnv.
func (c *Config) resolveProvider(in Input) error {
	env := in.Env
	var probed []string
	if c.Provider == "" {
		name, why, models := autoProvider(env, in.Probe)
		if name == "" {
			return ErrNoProvider
		}
		c.Provider, probed = name, models
		c.set("provider", "auto: "+why)
	}
	p, ok := LookupPreset(c.Provider)
	if !ok {
		return unknownProvider(c.Provider, c.Origin("provider"))
	}
	c.Provider, c.Family = p.Name, p.Family
	c.resolveBaseURL(p, env)
	if err := c.checkBaseURL(); err != nil {
		return err
	}
	c.resolveKey(p, env)
	if c.Model == "" {
		c.Model = p.Model
		c.set("model", "default for "+p.Name)
		if p.NoKey {
			// A local server named by the user, at the address the user
			// gave it: its model list is its own to tell.
			if probed == nil && in.Probe != nil {
				probed, _ = in.Probe(p, c.BaseURL)
			}
			if len(probed) > 0 {
				c.Model = probed[0]
				c.set("model", "auto: the first model "+p.Title+" lists")
			}
		}
	}
	return nil
}

// autoProvider chooses a provider from the environment: the first preset
// that needs a key whose key is set, then an OpenAI-compatible server
// named by OPENAI_BASE_URL, then the first local server (in preset order)
// that answers; they are all asked at once, so that the question costs
// one ProbeTimeout at most.
func autoProvider(env map[string]string, probe func(Preset, string) ([]string, bool)) (name, why string, models []string) {
	var local []Preset
	for _, p := range presets {
		if p.NoKey {
			local = append(local, p)
			continue
		}
		for _, k := range p.KeyEnvs {
			if env[k] != "" {
				return p.Name, k + " is set", nil
			}
		}
	}
	if env["OPENAI_BASE_URL"] != "" {
		return "openai", "OPENAI_BASE_URL is set", nil
	}
	if probe == nil {
		return "", "", nil
	}
	type answer struct {
		models []string
		ok     bool
	}
	answers := make([]answer, len(local))
	addrs := make([]string, len(local))
	var wg sync.WaitGroup
	for i, p := range local {
		addrs[i] = p.BaseURL
		if p.bareHost && env[p.URLEnv] != "" {
			addrs[i] = hostURL(env[p.URLEnv])
		}
		wg.Go(func() { answers[i].models, answers[i].ok = probe(p, addrs[i]) })
	}
	wg.Wait()
	for i, a := range answers {
		if a.ok {
			host := addrs[i]
			if u, err := url.Parse(host); err == nil {
				host = u.Host
			}
			return local[i].Name, local[i].Title + " answers on " + host, a.models
		}
	}
	return "", "", nil
}

// hostURL is the address a variable like OLLAMA_HOST names, which may
// leave out the scheme (http) and the port (11434 without a scheme, else
// the scheme's), and may name the address a server listens on for every
// interface ("0.0.0.0"), which a client reaches on this machine.
func hostURL(s string) string {
	s = strings.TrimSpace(s)
	scheme, rest, ok := strings.Cut(s, "://")
	port := "11434"
	switch {
	case !ok:
		scheme, rest = "http", s
	case scheme == "https":
		port = "443"
	default:
		port = "80"
	}
	hostport, path, _ := strings.Cut(rest, "/")
	host, p, err := net.SplitHostPort(hostport)
	if err != nil {
		host = strings.Trim(hostport, "[]")
	} else {
		port = p
	}
	switch host {
	case "", "0.0.0.0":
		host = "127.0.0.1"
	case "::":
		host = "::1"
	}
	u := scheme + "://" + net.JoinHostPort(host, port)
	if scheme == "http" && port == "80" || scheme == "https" && port == "443" {
		u = scheme + "://" + hostport
	}
	if path != "" {
		u += "/" + path
	}
	return u
}

// resolveBaseURL applies the precedence of addresses: base_url from a
// flag or AGENT_BASE_URL, then the SDK's own variable (OPENAI_BASE_URL,
// GOOGLE_GEMINI_BASE_URL, ANTHROPIC_BASE_URL), then base_url from a file,
// then the preset's address.
func (c *Config) resolveBaseURL(p Preset, env map[string]string) {
	origin := c.Origin("base_url")
	explicit := strings.HasPrefix(origin, "flag ") || strings.HasPrefix(origin, "env ")
	if !explicit && p.URLEnv != "" && env[p.URLEnv] != "" {
		c.BaseURL = strings.TrimRight(env[p.URLEnv], "/")
		if p.bareHost {
			c.BaseURL = hostURL(c.BaseURL)
		}
		c.set("base_url", "env "+p.URLEnv)
		return
	}
	if c.BaseURL == "" {
		c.BaseURL = p.BaseURL
		if p.BaseURL == "" {
			c.set("base_url", "default for "+p.Name+": the SDK's address")
		} else {
			c.set("base_url", "default for "+p.Name)
		}
	}
	c.BaseURL = strings.TrimRight(c.BaseURL, "/")
}

// resolveKey finds the key: in the variable api_key_env names, else in the
// preset's variables. A missing key is not an error here (the provider
// reports it when built), so that `agent config` can still show the rest.
func (c *Config) resolveKey(p Preset, env map[string]string) {
	if c.APIKeyEnv != "" {
		c.KeyEnv, c.APIKey = c.APIKeyEnv, env[c.APIKeyEnv]
	} else if len(p.KeyEnvs) > 0 {
		c.KeyEnv = p.KeyEnvs[0]
		for _, k := range p.KeyEnvs {
			if env[k] != "" {
				c.KeyEnv, c.APIKey = k, env[k]
				break
			}
		}
	}
	if c.APIKey != "" {
		c.set("api_key", "env "+c.KeyEnv)
	}
}

// KeyRequired reports whether the provider needs a key at its address: a
// local or self-hosted OpenAI-compatible server usually needs none.
func (c *Config) KeyRequired() bool {
	p, ok := LookupPreset(c.Provider)
	if !ok || p.NoKey {
		return false
	}
	if p.Family == FamilyOpenAI {
		return strings.TrimRight(c.BaseURL, "/") == strings.TrimRight(p.BaseURL, "/")
	}
	return true
}

// MissingKey is the error for a provider that needs a key when none is
// set, or nil.
func (c *Config) MissingKey() error {
	if c.APIKey != "" || !c.KeyRequired() {
		return nil
	}
	if c.APIKeyEnv != "" {
		return missingKey(fmt.Sprintf("%s needs an API key: api_key_env (from %s) names %s, which is not set",
			c.Provider, c.Origin("api_key_env"), c.APIKeyEnv))
	}
	p, _ := LookupPreset(c.Provider)
	return missingKey(fmt.Sprintf("%s needs an API key: set %s, or choose another provider with --provider",
		c.Provider, strings.Join(p.KeyEnvs, " or ")))
}

// ErrMissingKey is what MissingKey's error is (errors.Is): the provider
// needs a key and none is set.
var ErrMissingKey = errors.New("missing API key")

// missingKey is MissingKey's error, in its own words.
type missingKey string

func (e missingKey) Error() string      { return string(e) }
func (missingKey) Is(target error) bool { return target == ErrMissingKey }

// URLSetting names, for messages, where the base URL is configured.
func (c *Config) URLSetting() string {
	switch o := c.Origin("base_url"); {
	case strings.HasPrefix(o, "flag "):
		return strings.TrimPrefix(o, "flag ")
	case strings.HasPrefix(o, "env "):
		return strings.TrimPrefix(o, "env ")
	case strings.HasPrefix(o, "default"):
		if p, ok := LookupPreset(c.Provider); ok && p.URLEnv != "" {
			return p.URLEnv + " or base_url"
		}
		return "base_url"
	default:
		return "base_url in " + o
	}
}

// checkBaseURL refuses an address no request could use, before any
// request is made (the retry policy would otherwise call it unreachable).
func (c *Config) checkBaseURL() error {
	if c.BaseURL == "" {
		return nil
	}
	u, err := url.Parse(c.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("base URL %q (from %s): use an http:// or https:// address", c.BaseURL, c.Origin("base_url"))
	}
	return nil
}
