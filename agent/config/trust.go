package config

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// A project's config file comes with the project, and people run agents
// in repositories they have just cloned. Settings that could send data
// elsewhere, run programs, write outside the project or weaken safety are
// therefore taken from a project's file only when the user trusts the
// project, and so are limits raised above the user's (raiseTrustedOnly);
// the rest (the model, lower limits, output) always apply. Some settings
// are never taken from a project at all.

// trustedOnly are the settings (dotted names, or whole tables by their
// prefix) a project's file may set only when the project is trusted.
var trustedOnly = []string{
	"provider",
	"base_url",
	"api_key_env",
	"approval",
	"backups",
	"notes.path",
	"notes.space",
	"serve",
	"mcp.servers",
	"mcp.timeout",
	"tts.base_url",
}

// userOnly are the settings only the user's own config file may set:
// they widen what the agent may do without asking, or, like the serve
// token, are a secret a project's author must not choose (a token the
// author knows would open agent serve to them).
var userOnly = []string{
	"files.allow_secrets",
	"mcp.serve_token",
	"mcp.unsandboxed",
	"git",
	"notes.database_url",
	"notes.embeddings",
	"permissions",
	"programs",
	"shell",
	"web",
}

// raiseTrustedOnly are the limits a project's file may lower at any time
// but raise above the user's only when the project is trusted: a cloned
// repository must not make a run cost more (model calls, tokens shown)
// or wait longer than its user chose.
var raiseTrustedOnly = []string{
	"max_iterations",
	"stdin_timeout",
	"tool_timeout",
	"model_timeout",
	"retry.attempts",
	"retry.max_time",
	"tree.budget",
	"files.read_limit",
}

// Ignored is a setting of a project's file that was not applied.
type Ignored struct {
	Key   string // dotted name, e.g. "base_url"
	Value string // as written, in TOML
	File  string
	// UserOnly is true for a setting no project may make, trusted or
	// not; false for one that applies once the project is trusted.
	UserOnly bool
}

func (i Ignored) String() string { return i.Key + " = " + i.Value }

// matchesAny reports whether the dotted key is one of names or inside a
// table named there.
func matchesAny(key string, names []string) bool {
	for _, n := range names {
		if key == n || strings.HasPrefix(key, n+".") {
			return true
		}
	}
	return false
}

// restrictProject undoes, on c, the settings of a project file that the
// project may not make (all of userOnly; trustedOnly when not trusted),
// putting back what before had and recording each in c.Ignored.
func (c *Config) restrictProject(before Config, md toml.MetaData, raw map[string]any, path string, trusted bool) {
	seen := map[string]bool{}
	for _, k := range md.Keys() {
		key := k.String()
		userOnlyKey := matchesAny(key, userOnly)
		raised := !trusted && slices.Contains(raiseTrustedOnly, key) && fieldInt(c, key) > fieldInt(&before, key)
		if !userOnlyKey && !raised && (trusted || !matchesAny(key, trustedOnly)) {
			continue
		}
		top := topName(key, userOnly, trustedOnly)
		if seen[top] {
			continue
		}
		seen[top] = true
		restoreField(c, &before, top)
		for k := range c.Origins {
			if k == top || strings.HasPrefix(k, top+".") {
				delete(c.Origins, k)
			}
		}
		for k, o := range before.Origins {
			if k == top || strings.HasPrefix(k, top+".") {
				c.Origins[k] = o // the user's own setting stays theirs
			}
		}
		c.Ignored = append(c.Ignored, Ignored{Key: top, Value: tomlValue(raw, top), File: path, UserOnly: userOnlyKey})
	}
	if seen["provider"] && md.IsDefined("model") {
		// The model names one of the ignored provider's models: sent to
		// the provider in use, it would fail, or pick another model.
		c.Model = before.Model
		delete(c.Origins, "model")
		if o, ok := before.Origins["model"]; ok {
			c.Origins["model"] = o
		}
		c.Ignored = append(c.Ignored, Ignored{Key: "model", Value: tomlValue(raw, "model"), File: path})
	}
	if trusted && c.APIKeyEnv != before.APIKeyEnv && !knownKeyVariable(c.APIKeyEnv) {
		// Even a trusted project may only pick one of the providers'
		// own key variables: naming any other would hand that
		// variable's secret to the provider as an API key.
		c.Ignored = append(c.Ignored, Ignored{Key: "api_key_env", Value: fmt.Sprintf("%q", c.APIKeyEnv), File: path, UserOnly: true})
		c.APIKeyEnv = before.APIKeyEnv
		delete(c.Origins, "api_key_env")
	}
}

// topName is the entry of the lists that key falls under.
func topName(key string, lists ...[]string) string {
	for _, l := range lists {
		for _, n := range l {
			if key == n || strings.HasPrefix(key, n+".") {
				return n
			}
		}
	}
	return key
}

// knownKeyVariable reports whether name is a provider's usual key
// variable.
func knownKeyVariable(name string) bool {
	for _, p := range presets {
		if slices.Contains(p.KeyEnvs, name) {
			return true
		}
	}
	return false
}

// tomlValue shows what the file set for key: the value itself, or a
// table's settings as key = value pairs, so that a person asked to trust
// them sees where data would go and what would run.
func tomlValue(raw map[string]any, key string) string {
	var v any = raw
	for _, part := range strings.Split(key, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return "(set)"
		}
		v = m[part]
	}
	return formatTOML(v)
}

func formatTOML(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k + " = " + formatTOML(x[k])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = formatTOML(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return fmt.Sprint(v)
}

// restoreField copies the field at the dotted toml path from src to dst.
func restoreField(dst, src *Config, path string) {
	d, s := reflect.ValueOf(dst).Elem(), reflect.ValueOf(src).Elem()
	for _, name := range strings.Split(path, ".") {
		i := fieldIndex(d.Type(), name)
		if i < 0 {
			return
		}
		d, s = d.Field(i), s.Field(i)
		if d.Kind() != reflect.Struct {
			break
		}
	}
	d.Set(s)
}

// fieldInt is the whole-number setting at the dotted toml path (a
// count, a Duration, a Size), or 0.
func fieldInt(c *Config, path string) int64 {
	v := reflect.ValueOf(c).Elem()
	for _, name := range strings.Split(path, ".") {
		i := fieldIndex(v.Type(), name)
		if i < 0 {
			return 0
		}
		v = v.Field(i)
	}
	if v.CanInt() {
		return v.Int()
	}
	return 0
}

// fieldIndex finds the field of struct type t whose toml name is name.
func fieldIndex(t reflect.Type, name string) int {
	if t.Kind() != reflect.Struct {
		return -1
	}
	for i := range t.NumField() {
		tag, _, _ := strings.Cut(t.Field(i).Tag.Get("toml"), ",")
		if tag == name {
			return i
		}
	}
	return -1
}

// clone copies c deeply enough that decoding a file over the copy's
// original leaves the copy alone: TOML decoding reuses slices in place.
func (c *Config) clone() Config {
	out := *c
	out.Origins = maps.Clone(c.Origins)
	out.Programs = maps.Clone(c.Programs) // Decode fills a map in place too
	cloneSlices(reflect.ValueOf(&out).Elem())
	return out
}

func cloneSlices(v reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Field(i); f.CanSet() {
				cloneSlices(f)
			}
		}
	case reflect.Slice:
		if !v.IsNil() {
			n := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
			reflect.Copy(n, v)
			v.Set(n)
		}
	}
}
