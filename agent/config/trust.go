package config

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// A project's config file comes with the project, and people run agents
// in repositories they have just cloned. Every setting is classified
// (settingClasses in trust_keys.go): some apply from any project, some
// only once the user trusts it (settings that could send data elsewhere,
// run programs, write outside the project or weaken safety, and limits
// raised above the user's), some never; a setting nobody classified is
// never taken from a project.

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

// restrictProject undoes, on c, the settings of a project file that the
// project may not make (settingClasses), putting back what before had
// and recording each in c.Ignored.
func (c *Config) restrictProject(before Config, md toml.MetaData, raw map[string]any, path string, trusted bool) {
	seen := map[string]bool{}
	for _, k := range md.Keys() {
		rule, parts, class := classify(k)
		if rule == "" && md.Type(k...) == "Hash" {
			continue // a table: its settings are classified one by one
		}
		switch class {
		case anyProject:
			continue
		case trustedProject, raiseNeedsTrust:
			if trusted || class == raiseNeedsTrust && !raised(rule, k, c, &before) {
				continue
			}
		}
		top := k
		if parts > 0 {
			top = k[:parts]
		}
		name := top.String()
		if seen[name] {
			continue
		}
		seen[name] = true
		restoreField(c, &before, top)
		for k := range c.Origins {
			if k == name || strings.HasPrefix(k, name+".") {
				delete(c.Origins, k)
			}
		}
		for k, o := range before.Origins {
			if k == name || strings.HasPrefix(k, name+".") {
				c.Origins[k] = o // the user's own setting stays theirs
			}
		}
		userOnlyKey := class == userOnly || class == unclassified
		c.Ignored = append(c.Ignored, Ignored{Key: name, Value: tomlValue(raw, top), File: path, UserOnly: userOnlyKey})
	}
	if seen["provider"] && md.IsDefined("model") {
		// The model names one of the ignored provider's models: sent to
		// the provider in use, it would fail, or pick another model.
		c.Model = before.Model
		delete(c.Origins, "model")
		if o, ok := before.Origins["model"]; ok {
			c.Origins["model"] = o
		}
		c.Ignored = append(c.Ignored, Ignored{Key: "model", Value: tomlValue(raw, toml.Key{"model"}), File: path})
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
func tomlValue(raw map[string]any, key toml.Key) string {
	var v any = raw
	for _, part := range key {
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

// restoreField puts back in dst the setting at key as src has it: a
// field, a whole table, or the entry of a table named by the file (a
// model's), removed when src has none.
func restoreField(dst, src *Config, key toml.Key) {
	restore(reflect.ValueOf(dst).Elem(), reflect.ValueOf(src).Elem(), key)
}

func restore(d, s reflect.Value, key toml.Key) {
	if len(key) == 0 {
		d.Set(s)
		return
	}
	switch d.Kind() {
	case reflect.Struct:
		if i := fieldIndex(d.Type(), key[0]); i >= 0 {
			restore(d.Field(i), s.Field(i), key[1:])
		}
	case reflect.Map:
		if d.IsNil() {
			return // the file set nothing here
		}
		name := reflect.ValueOf(key[0]).Convert(d.Type().Key())
		had := s.MapIndex(name)
		if len(key) == 1 {
			d.SetMapIndex(name, had) // an invalid Value deletes
			return
		}
		if !had.IsValid() {
			had = reflect.Zero(d.Type().Elem())
		}
		entry := reflect.New(d.Type().Elem()).Elem()
		entry.Set(d.MapIndex(name))
		restore(entry, had, key[1:])
		d.SetMapIndex(name, entry)
	}
}

// fieldInt is the whole-number setting at key (a count, a Duration, a
// Size), or 0.
func fieldInt(c *Config, key toml.Key) int64 {
	v := reflect.ValueOf(c).Elem()
	for _, name := range key {
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

// clone copies c deeply: TOML decoding fills slices, maps and pointed-to
// values in place, and the copy must keep what c had.
func (c *Config) clone() Config {
	out := *c
	deepCopy(reflect.ValueOf(&out).Elem())
	return out
}

// deepCopy replaces what v shares with its original (slices, maps,
// pointers) by copies.
func deepCopy(v reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Field(i); f.CanSet() {
				deepCopy(f)
			}
		}
	case reflect.Slice:
		if !v.IsNil() {
			n := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
			reflect.Copy(n, v)
			for i := range n.Len() {
				deepCopy(n.Index(i))
			}
			v.Set(n)
		}
	case reflect.Map:
		if !v.IsNil() {
			n := reflect.MakeMapWithSize(v.Type(), v.Len())
			for it := v.MapRange(); it.Next(); {
				e := reflect.New(v.Type().Elem()).Elem()
				e.Set(it.Value())
				deepCopy(e)
				n.SetMapIndex(it.Key(), e)
			}
			v.Set(n)
		}
	case reflect.Pointer:
		if !v.IsNil() {
			n := reflect.New(v.Type().Elem())
			n.Elem().Set(v.Elem())
			deepCopy(n.Elem())
			v.Set(n)
		}
	}
}
