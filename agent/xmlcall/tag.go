package xmlcall

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// tag is an opening tag read by parseTag.
type tag struct {
	name        string
	attrs       []Param
	selfClosing bool
	end         int  // bytes from '<' through '>'
	needMore    bool // the input ended inside the tag
}

func (t tag) attr(name string) string {
	for _, a := range t.attrs {
		if a.Name == name {
			return a.Value
		}
	}
	return ""
}

func isNameStart(c byte) bool {
	return c == '_' || c == ':' || (c|0x20 >= 'a' && c|0x20 <= 'z')
}

func isNameChar(c byte) bool {
	return isNameStart(c) || c == '-' || c == '.' || (c >= '0' && c <= '9')
}

// parseTag reads an opening tag <name attr="v" ...> or <name/> at the start
// of s. Attributes take single or double quotes (or none), with spaces
// around '='. Anything else (a '<' in code such as "a < b" or
// "<K extends T>") is not a tag. A tag longer than limit is not a tag.
func parseTag(s string, limit int) (tag, bool) {
	var t tag
	i := 1
	if i >= len(s) {
		t.needMore = true
		return t, false
	}
	if !isNameStart(s[i]) {
		return t, false
	}
	for i < len(s) && isNameChar(s[i]) {
		i++
	}
	t.name = s[1:i]
	for {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		if i >= len(s) || i >= limit {
			t.needMore = i < limit
			return t, false
		}
		switch {
		case s[i] == '>':
			t.end = i + 1
			return t, true
		case s[i] == '/':
			if i+1 >= len(s) {
				t.needMore = true
				return t, false
			}
			if s[i+1] != '>' {
				return t, false
			}
			t.selfClosing = true
			t.end = i + 2
			return t, true
		case !isNameStart(s[i]):
			return t, false
		}
		// name = value
		a := i
		for i < len(s) && isNameChar(s[i]) {
			i++
		}
		name := s[a:i]
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		if i >= len(s) {
			t.needMore = i < limit
			return t, false
		}
		if s[i] != '=' {
			return t, false
		}
		i++
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		if i >= len(s) {
			t.needMore = i < limit
			return t, false
		}
		var val string
		if q := s[i]; q == '"' || q == '\'' {
			k := strings.IndexByte(s[i+1:], q)
			if k < 0 {
				t.needMore = len(s) < limit
				return t, false
			}
			val = s[i+1 : i+1+k]
			i += k + 2
		} else {
			b := i
			for i < len(s) && !isSpace(s[i]) && s[i] != '>' && !(s[i] == '/' && i+1 < len(s) && s[i+1] == '>') {
				i++
			}
			val = s[b:i]
		}
		t.attrs = append(t.attrs, Param{Name: name, Value: decodeAll(val)})
	}
}

// openTagName reads the name of an opening tag at the start of s ("<name"
// followed by whitespace, '>' or '/').
func openTagName(s string, final bool) (string, matchResult) {
	if len(s) < 2 {
		if final {
			return "", matchNo
		}
		return "", matchMore
	}
	if !isNameStart(s[1]) {
		return "", matchNo
	}
	i := 2
	for i < len(s) && isNameChar(s[i]) {
		i++
	}
	if i >= len(s) {
		if final || i >= maxTag {
			return "", matchNo
		}
		return "", matchMore
	}
	switch s[i] {
	case ' ', '\t', '\r', '\n', '>', '/':
		return s[1:i], matchYes
	}
	return "", matchNo
}

// matchClose reports whether s starts with the closing tag </name>, with
// optional whitespace before '>', and its length.
func matchClose(s, name string, final bool) (int, matchResult) {
	n := 2 + len(name)
	if len(s) < n {
		if !final && strings.HasPrefix("</"+name, s) {
			return 0, matchMore
		}
		return 0, matchNo
	}
	if s[0] != '<' || s[1] != '/' || s[2:n] != name {
		return 0, matchNo
	}
	for i := n; i < len(s) && i < n+maxTag; i++ {
		switch s[i] {
		case '>':
			return i + 1, matchYes
		case ' ', '\t', '\r', '\n':
			continue
		}
		return 0, matchNo
	}
	if final || len(s) >= n+maxTag {
		return 0, matchNo
	}
	return 0, matchMore
}

// decodeEntity decodes the entity at the start of s: the five XML entities
// and numeric references. A '&' that starts no valid entity is literal
// (matchNo), because models write "a && b" without escaping.
func decodeEntity(s string, final bool) (string, int, matchResult) {
	i := 1
	for i < len(s) && i < maxEntity {
		c := s[i]
		if c == ';' {
			r, ok := entityValue(s[1:i])
			if !ok {
				return "", 0, matchNo
			}
			return r, i + 1, matchYes
		}
		if !(c == '#' || isNameChar(c)) {
			return "", 0, matchNo
		}
		i++
	}
	if i >= maxEntity || final {
		return "", 0, matchNo
	}
	return "", 0, matchMore
}

func entityValue(name string) (string, bool) {
	switch name {
	case "lt":
		return "<", true
	case "gt":
		return ">", true
	case "amp":
		return "&", true
	case "quot":
		return `"`, true
	case "apos":
		return "'", true
	}
	if len(name) < 2 || name[0] != '#' {
		return "", false
	}
	var n uint64
	var err error
	if name[1] == 'x' || name[1] == 'X' {
		n, err = strconv.ParseUint(name[2:], 16, 32)
	} else {
		n, err = strconv.ParseUint(name[1:], 10, 32)
	}
	r := rune(n)
	if err != nil || n == 0 || n > utf8.MaxRune || !utf8.ValidRune(r) {
		return "", false
	}
	return string(r), true
}

// decodeAll decodes every entity in an attribute value.
func decodeAll(v string) string {
	if !strings.Contains(v, "&") {
		return v
	}
	var b strings.Builder
	for {
		j := strings.IndexByte(v, '&')
		if j < 0 {
			b.WriteString(v)
			return b.String()
		}
		b.WriteString(v[:j])
		r, n, m := decodeEntity(v[j:], true)
		if m == matchYes {
			b.WriteString(r)
			v = v[j+n:]
		} else {
			b.WriteByte('&')
			v = v[j+1:]
		}
	}
}

// strayClose measures a closing tag </name> at the start of s that closes
// nothing; it returns 2 when s holds no such tag, so the caller moves on.
func strayClose(s string, final bool) (int, matchResult) {
	i := 2
	for i < len(s) && i < maxTag && isNameChar(s[i]) {
		i++
	}
	for i < len(s) && i < maxTag && isSpace(s[i]) {
		i++
	}
	switch {
	case i < len(s) && s[i] == '>' && i > 2:
		return i + 1, matchYes
	case i == len(s) && !final && i < maxTag:
		return 0, matchMore
	}
	return 2, matchNo
}
