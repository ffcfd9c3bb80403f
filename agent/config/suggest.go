package config

import (
	"reflect"
	"strconv"
	"strings"
	"unicode"

	"github.com/BurntSushi/toml"
)

// unknownKeyError is the message for a setting of a config file that
// does not exist, with the closest real one when there is a close one.
func unknownKeyError(path, key string) string {
	msg := "unknown setting " + quoteKey(key) + " in " + path
	if s := closestKey(key); s != "" {
		return msg + " (did you mean " + s + "?)"
	}
	return msg + " (agent config shows them all)"
}

// quoteKey makes a key (toml's Key.String, which already quotes a key
// that is not a bare name) or a variable's value safe to show: one with
// a control or non-printing character is quoted, escapes and all, since
// a hostile file's key may hold anything.
func quoteKey(key string) string {
	for _, r := range key {
		if !unicode.IsPrint(r) {
			return strconv.Quote(key)
		}
	}
	return key
}

// looksLikeSecret reports whether an unknown key names a secret (api_key,
// gemini_key, openai_token): such a key gets the advice that keys live
// in the environment, not a suggestion. "bogus_key" is no secret.
func looksLikeSecret(key string) bool {
	last := strings.ToLower(key[strings.LastIndex(key, ".")+1:])
	switch last {
	case "key", "apikey", "api_key", "token", "secret", "password":
		return true
	}
	for _, suf := range []string{"api_key", "apikey", "_token", "_secret"} {
		if strings.HasSuffix(last, suf) {
			return true
		}
	}
	if name, ok := strings.CutSuffix(last, "_key"); ok {
		_, known := LookupPreset(name)
		return known || name == "google"
	}
	return false
}

// closestKey is the real setting nearest to key: the same name in
// another table (read_limit for files.read_limit), or one a typo or two
// away (max_iteratons). "" when none is close.
func closestKey(key string) string {
	names := settingNames(reflect.TypeOf(Config{}), "")
	ks := strings.Split(key, ".")
	best, bestD := "", -1
	for _, pat := range names {
		ps := strings.Split(pat, ".")
		if len(ps) == len(ks) {
			// Map tables (models.NAME, mcp.servers.NAME) take the
			// key's own name in the pattern's place.
			c := make([]string, len(ps))
			for i, p := range ps {
				c[i] = p
				if p == "*" {
					c[i] = ks[i]
				}
			}
			cand := strings.Join(c, ".")
			if d := editDistance(key, cand); bestD < 0 || d < bestD {
				best, bestD = cand, d
			}
		}
		if ps[len(ps)-1] == ks[len(ks)-1] && !strings.Contains(pat, "*") && pat != key {
			if bestD < 0 || 1 < bestD {
				best, bestD = pat, 1
			}
		}
	}
	if bestD < 0 || bestD == 0 || bestD > maxTypos(ks[len(ks)-1]) {
		return ""
	}
	return best
}

// maxTypos is how far a name may be from a setting to be taken for it.
func maxTypos(name string) int {
	switch n := len(name); {
	case n <= 3:
		return 1
	case n <= 8:
		return 2
	}
	return 3
}

// settingNames lists the dotted names of the settings of type t, "*" in
// the place of a map's keys.
func settingNames(t reflect.Type, prefix string) []string {
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		tag, opt, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if tag == "" && opt == "remain" && f.Type.Kind() == reflect.Map { // the table's other keys: [lsp.NAME]
			out = append(out, settingNames(f.Type.Elem(), prefix+"*.")...)
			continue
		}
		if tag == "" || tag == "-" || !f.IsExported() {
			continue
		}
		name := prefix + tag
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		switch {
		case ft.Kind() == reflect.Struct && !isLeaf(ft):
			out = append(out, settingNames(ft, name+".")...)
		case ft.Kind() == reflect.Map && ft.Elem().Kind() == reflect.Struct:
			out = append(out, settingNames(ft.Elem(), name+".*.")...)
		default:
			out = append(out, name)
		}
	}
	return out
}

// isLeaf reports whether a struct type is one value in TOML (it reads
// itself from text, like Duration and Size).
func isLeaf(t reflect.Type) bool {
	type textUnmarshaler interface{ UnmarshalText([]byte) error }
	return reflect.PointerTo(t).Implements(reflect.TypeFor[textUnmarshaler]())
}

// editDistance is the Levenshtein distance of a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// miscasedKey returns the first key of md spelled in other capitals than
// its setting, and the setting's own spelling. The TOML decoder fills a
// field whatever the case of its key (Base_URL sets base_url), but the
// rules about what a project may set compare keys as written: a key in
// other capitals would pass them, so it is refused.
func miscasedKey(md toml.MetaData) (key, want string) {
	for _, k := range md.Keys() {
		t := reflect.TypeOf(Config{})
		for i, part := range k {
			for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
				t = t.Elem()
			}
			if t.Kind() == reflect.Map {
				t = t.Elem() // part is the map's own key
				continue
			}
			if t.Kind() != reflect.Struct {
				break
			}
			f, exact := settingField(t, part)
			if f == nil {
				break // not a setting: Undecoded reports it
			}
			if !exact {
				fixed := append(toml.Key{}, k[:i+1]...)
				fixed[i] = tomlName(*f)
				return k[:i+1].String(), fixed.String()
			}
			t = f.Type
		}
	}
	return "", ""
}

// settingField finds the field of struct type t that the key part sets:
// exact says it is spelled as the field's toml name.
func settingField(t reflect.Type, part string) (f *reflect.StructField, exact bool) {
	if i := fieldIndex(t, part); i >= 0 {
		sf := t.Field(i)
		return &sf, true
	}
	for i := range t.NumField() {
		sf := t.Field(i)
		if name := tomlName(sf); name != "-" && sf.IsExported() && (strings.EqualFold(name, part) || strings.EqualFold(sf.Name, part)) {
			return &sf, false
		}
	}
	return nil, false
}

// tomlName is the key that sets field f.
func tomlName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
	if name == "" {
		return f.Name
	}
	return name
}
