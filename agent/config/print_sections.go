package config

import (
	"maps"
	"slices"
	"strconv"
	"strings"
)

// quotedList is a list of strings as TOML writes it.
func quotedList(v []string) string {
	q := make([]string, len(v))
	for i, s := range v {
		q[i] = strconv.Quote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// writeTTS prints the [tts] section.
func (c *Config) writeTTS(b *strings.Builder, line func(key, value string)) {
	b.WriteString("\n[tts]\n")
	line("tts.provider", strconv.Quote(c.TTS.Provider))
	line("tts.model", strconv.Quote(c.TTS.Model))
	line("tts.voice", strconv.Quote(c.TTS.Voice))
	line("tts.base_url", strconv.Quote(c.TTS.BaseURL))
	line("tts.concurrency", strconv.Itoa(c.TTS.Concurrency))
}

// writeMCP prints the [mcp] section when something in it is set: the
// timeout, the serve token (masked), and each server of the config files
// as a one-line summary of what it runs or where it connects, values
// written as they were (${VAR} stays a reference; a literal header or
// variable value is masked).
func (c *Config) writeMCP(b *strings.Builder, line func(key, value string)) {
	m := c.MCP
	if m.Timeout == 0 && m.ServeToken == "" && len(m.Unsandboxed) == 0 && len(m.Servers) == 0 {
		return
	}
	b.WriteString("\n[mcp]\n")
	if m.Timeout != 0 {
		line("mcp.timeout", strconv.Quote(m.Timeout.String()))
	}
	if m.ServeToken != "" {
		line("mcp.serve_token", strconv.Quote(Mask(m.ServeToken)))
	}
	if len(m.Unsandboxed) > 0 {
		line("mcp.unsandboxed", quotedList(m.Unsandboxed))
	}
	for _, name := range slices.Sorted(maps.Keys(m.Servers)) {
		s := m.Servers[name]
		key := "mcp.servers." + strconv.Quote(name)
		if isBareKey(name) {
			key = "mcp.servers." + name
		}
		b.WriteString("\n[" + key + "]\n")
		if s.Command != "" {
			line(key+".command", strconv.Quote(s.Command))
			if len(s.Args) > 0 {
				line(key+".args", quotedList(s.Args))
			}
		} else {
			line(key+".url", strconv.Quote(s.URL))
		}
		if len(s.Env) > 0 {
			line(key+".env", maskedTable(s.Env))
		}
		if len(s.Headers) > 0 {
			line(key+".headers", maskedTable(s.Headers))
		}
		if s.Enabled != nil {
			line(key+".enabled", strconv.FormatBool(*s.Enabled))
		}
		if len(s.ReadOnly) > 0 {
			line(key+".read_only", quotedList(s.ReadOnly))
		}
		if s.Network != nil {
			line(key+".network", strconv.FormatBool(*s.Network))
		}
	}
}

// maskedTable is an inline TOML table of values that may hold secrets:
// a value that refers to a variable ("${TOKEN}", "Bearer ${TOKEN}") is
// shown, any other masked.
func maskedTable(kv map[string]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(kv)) {
		v := kv[k]
		if !strings.Contains(v, "$") {
			v = Mask(v)
		}
		name := k
		if !isBareKey(k) {
			name = strconv.Quote(k)
		}
		parts = append(parts, name+" = "+strconv.Quote(v))
	}
	return "{ " + strings.Join(parts, ", ") + " }"
}

// isBareKey reports whether TOML takes k as a key without quotes.
func isBareKey(k string) bool {
	return k != "" && !strings.ContainsFunc(k, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-')
	})
}
