// Package frontmatter reads the YAML front matter of a markdown file:
// the block between a "---" line that opens the file and the next "---"
// line. Skills (SKILL.md) and custom commands both start that way.
//
// It reads the part of YAML such files use, by hand rather than with a
// YAML library, because files written for other agents are not always
// YAML: the most common skill in the wild has a description with a colon
// in it ("Use when: the user asks..."), which a YAML parser rejects and
// this reader takes as text, and Claude Code's `argument-hint: [file]`
// stays the text it was written as. What it reads:
//
//   - key: value lines, the value plain (a trailing " # comment" cut off,
//     more-indented lines folded in), "double-quoted" (with escapes) or
//     'single-quoted', on one line or several;
//   - block scalars (| and >, with - or + and an indentation digit);
//   - nested lists ("- item") and maps, indented with spaces;
//   - comment and blank lines.
//
// Flow collections ([a, b], {a: b}), anchors, aliases and tags are kept
// as the text they were written as. A key given twice, a tab in the
// indentation, a quote never closed and a front matter with no closing
// line are errors, each naming its line. Nesting is bounded, so no input
// makes it recurse without end; it never panics (a fuzz test holds it).
package frontmatter

import (
	"errors"
	"fmt"
	"strings"
)

// Kind is what a Value holds.
type Kind int

// The kinds of values.
const (
	Scalar Kind = iota // text
	List               // a sequence of values
	Map                // keys with values, in order
)

// Value is one value of the front matter.
type Value struct {
	Kind Kind
	// Text is a scalar's text: quotes and escapes resolved, a plain
	// value's lines folded into one; "" for an empty value (or null, ~).
	Text string
	// Items are a list's values.
	Items []Value
	// Fields are a map's keys and values, in the order written.
	Fields []Field
}

// Field is one key and its value.
type Field struct {
	Key   string
	Value Value
	// Line is the key's line in the document, 1 for the opening "---".
	Line int
}

// Matter is a document's front matter: its top-level keys.
type Matter struct {
	Fields []Field
}

// ErrNotClosed is the error of a document that opens a front matter
// block and never closes it.
var ErrNotClosed = errors.New("the front matter has no closing --- line")

// maxDepth bounds how deeply values nest; real front matter is two or
// three levels deep.
const maxDepth = 32

// Get returns the value of the top-level key, and whether it is there.
func (m Matter) Get(key string) (Value, bool) {
	for _, f := range m.Fields {
		if f.Key == key {
			return f.Value, true
		}
	}
	return Value{}, false
}

// Text returns the text of key's value when it is a scalar; false when
// the key is absent or holds a list or a map.
func (m Matter) Text(key string) (string, bool) {
	v, ok := m.Get(key)
	if !ok || v.Kind != Scalar {
		return "", false
	}
	return v.Text, true
}

// Strings returns the texts of a list of scalars, and false when v is
// not such a list.
func (v Value) Strings() ([]string, bool) {
	if v.Kind != List {
		return nil, false
	}
	out := make([]string, 0, len(v.Items))
	for _, it := range v.Items {
		if it.Kind != Scalar {
			return nil, false
		}
		out = append(out, it.Text)
	}
	return out, true
}

// Parse reads the front matter at the start of doc and returns it with
// the body after its closing line. A document that does not open with a
// "---" line has no front matter: all of it is the body. A UTF-8
// byte-order mark and CRLF line ends are accepted.
func Parse(doc string) (Matter, string, error) {
	front, body, ok := split(doc)
	if !ok {
		if front == "" {
			return Matter{}, doc, nil
		}
		return Matter{}, doc, ErrNotClosed
	}
	p := &parser{lines: splitLines(front)}
	m, err := p.document()
	if err != nil {
		return Matter{}, doc, err
	}
	return m, body, nil
}

// split cuts doc into its front matter (the lines between the two "---"
// lines) and its body. ok is false when there is no closing line; front
// is then "" when there is no opening line either.
func split(doc string) (front, body string, ok bool) {
	doc = strings.TrimPrefix(doc, "\ufeff")
	first, rest, found := strings.Cut(doc, "\n")
	if strings.TrimRight(first, " \t\r") != "---" {
		return "", doc, false
	}
	if !found {
		return "\n", "", false
	}
	for off := 0; off <= len(rest); {
		end := strings.IndexByte(rest[off:], '\n')
		line, next := rest[off:], len(rest)
		if end >= 0 {
			line, next = rest[off:off+end], off+end+1
		}
		if strings.TrimRight(line, " \t\r") == "---" {
			return rest[:off], rest[next:], true
		}
		if end < 0 {
			break
		}
		off = next
	}
	return "\n", "", false
}

// line is one line of the front matter.
type line struct {
	num    int    // in the document: the first front matter line is 2
	raw    string // as written, without the line break
	indent int    // leading spaces
	text   string // raw without the indentation and trailing blanks
	tab    bool   // a tab in the indentation
}

// blank reports a line with nothing to parse (empty or a comment).
func (l line) blank() bool { return l.text == "" || l.text[0] == '#' }

func splitLines(front string) []line {
	raws := strings.Split(strings.TrimSuffix(front, "\n"), "\n")
	out := make([]line, len(raws))
	for i, r := range raws {
		r = strings.TrimSuffix(r, "\r")
		n := 0
		for n < len(r) && r[n] == ' ' {
			n++
		}
		rest := strings.TrimRight(r[n:], " \t")
		tab := false
		if strings.HasPrefix(rest, "\t") {
			tab = true
			rest = strings.TrimLeft(rest, " \t")
		}
		out[i] = line{num: i + 2, raw: r, indent: n, text: rest, tab: tab}
	}
	return out
}

type parser struct {
	lines []line
	i     int // the next line to read
	depth int
}

// peek returns the next line that is not blank, without taking it.
func (p *parser) peek() (int, bool) {
	for j := p.i; j < len(p.lines); j++ {
		if !p.lines[j].blank() {
			return j, true
		}
	}
	return 0, false
}

func errorf(l line, format string, args ...any) error {
	return fmt.Errorf("line %d: %s", l.num, fmt.Sprintf(format, args...))
}

// document reads the top-level map and checks nothing is left over.
func (p *parser) document() (Matter, error) {
	j, ok := p.peek()
	if !ok {
		return Matter{}, nil
	}
	l := p.lines[j]
	if l.tab {
		return Matter{}, errorf(l, "a tab in the indentation; indent with spaces")
	}
	if isItem(l.text) {
		return Matter{}, errorf(l, "the front matter is a list; it must be key: value lines")
	}
	v, err := p.mapping(l.indent)
	if err != nil {
		return Matter{}, err
	}
	if j, ok := p.peek(); ok {
		return Matter{}, errorf(p.lines[j], "indented less than the keys before it")
	}
	return Matter{Fields: v.Fields}, nil
}

// node reads the value whose first line is the next non-blank one, at
// indentation ind: a list, a map, or a plain text over several lines.
func (p *parser) node(ind, parent int) (Value, error) {
	j, _ := p.peek()
	l := p.lines[j]
	if p.depth++; p.depth > maxDepth {
		return Value{}, errorf(l, "values nested more than %d deep", maxDepth)
	}
	defer func() { p.depth-- }()
	switch {
	case l.tab:
		return Value{}, errorf(l, "a tab in the indentation; indent with spaces")
	case isItem(l.text):
		return p.list(ind)
	}
	if _, _, ok := splitKey(l.text); ok {
		return p.mapping(ind)
	}
	p.i = j
	return p.scalar(l.text[:0], parent, l) // a text starting on the next line
}

// mapping reads key: value lines at indentation ind.
func (p *parser) mapping(ind int) (Value, error) {
	v := Value{Kind: Map}
	seen := map[string]bool{}
	for {
		j, ok := p.peek()
		if !ok {
			return v, nil
		}
		l := p.lines[j]
		switch {
		case l.tab:
			return Value{}, errorf(l, "a tab in the indentation; indent with spaces")
		case l.indent < ind:
			return v, nil
		case l.indent > ind:
			return Value{}, errorf(l, "indented more than the key before it")
		case isItem(l.text):
			return Value{}, errorf(l, "a list item where a key: value line was expected")
		}
		key, rest, ok := splitKey(l.text)
		if !ok {
			return Value{}, errorf(l, "expected key: value")
		}
		if seen[key] {
			return Value{}, errorf(l, "the key %q is given twice", key)
		}
		seen[key] = true
		p.i = j + 1
		val, err := p.value(rest, ind, l, true)
		if err != nil {
			return Value{}, err
		}
		v.Fields = append(v.Fields, Field{Key: key, Value: val, Line: l.num})
	}
}

// list reads "- item" lines at indentation ind.
func (p *parser) list(ind int) (Value, error) {
	v := Value{Kind: List}
	for {
		j, ok := p.peek()
		if !ok {
			return v, nil
		}
		l := p.lines[j]
		if l.tab {
			return Value{}, errorf(l, "a tab in the indentation; indent with spaces")
		}
		if l.indent < ind || !isItem(l.text) {
			return v, nil
		}
		if l.indent > ind {
			return Value{}, errorf(l, "indented more than the item before it")
		}
		after := strings.TrimLeft(l.text[1:], " \t")
		itemInd := ind + len(l.text) - len(after)
		var (
			item Value
			err  error
		)
		_, _, isKey := splitKey(after)
		switch {
		case after != "" && after[0] != '#' && (isItem(after) || isKey):
			// "- key: value" and "- - item": the rest of the line is the
			// first line of a map or list indented where it starts.
			p.lines[j] = line{num: l.num, raw: l.raw, indent: itemInd, text: after}
			p.i = j
			item, err = p.node(itemInd, ind)
		default:
			p.i = j + 1
			item, err = p.value(after, ind, l, false)
		}
		if err != nil {
			return Value{}, err
		}
		v.Items = append(v.Items, item)
	}
}

// value reads the value that follows a key or a list item's dash on line
// l: rest is the line's text after them; parent is the indentation of
// the key or dash. A map key's value may be a list at the key's own
// indentation (YAML's compact form).
func (p *parser) value(rest string, parent int, l line, mapKey bool) (Value, error) {
	rest = strings.TrimLeft(rest, " \t")
	switch {
	case rest == "" || rest[0] == '#':
		j, ok := p.peek()
		if ok && p.lines[j].indent > parent {
			return p.node(p.lines[j].indent, parent)
		}
		if ok && mapKey && p.lines[j].indent == parent && isItem(p.lines[j].text) {
			return p.node(parent, parent)
		}
		return Value{Kind: Scalar}, nil
	case rest[0] == '|' || rest[0] == '>':
		return p.block(rest, parent, l)
	case rest[0] == '"' || rest[0] == '\'':
		return p.quoted(rest, l)
	}
	return p.scalar(rest, parent, l)
}

// scalar reads a plain value: first (the rest of its first line, which
// may be empty) and the lines after it indented more than parent,
// folded into one line (a blank line is a line break).
func (p *parser) scalar(first string, parent int, l line) (Value, error) {
	parts := []string{}
	if t := cutComment(first); t != "" {
		parts = append(parts, t)
	}
	breaks := 0
	for p.i < len(p.lines) {
		n := p.lines[p.i]
		if n.text == "" {
			breaks++
			p.i++
			continue
		}
		if n.indent <= parent || n.text[0] == '#' {
			break
		}
		if n.tab {
			return Value{}, errorf(n, "a tab in the indentation; indent with spaces")
		}
		if len(parts) > 0 {
			if breaks > 0 {
				parts = append(parts, strings.Repeat("\n", breaks))
			} else {
				parts = append(parts, " ")
			}
		}
		parts = append(parts, cutComment(n.text))
		breaks = 0
		p.i++
	}
	text := strings.Join(parts, "")
	switch text {
	case "~", "null", "Null", "NULL":
		text = ""
	}
	return Value{Kind: Scalar, Text: text}, nil
}

// cutComment drops a plain value's trailing comment: from a # that
// follows a blank.
func cutComment(s string) string {
	if strings.HasPrefix(s, "#") {
		return ""
	}
	for i := 1; i < len(s); i++ {
		if s[i] == '#' && (s[i-1] == ' ' || s[i-1] == '\t') {
			return strings.TrimRight(s[:i], " \t")
		}
	}
	return strings.TrimSpace(s)
}

// isItem reports a list item's line.
func isItem(text string) bool {
	return text == "-" || strings.HasPrefix(text, "- ") || strings.HasPrefix(text, "-\t")
}

// splitKey splits "key: value" (the key plain or quoted) at the colon
// that ends the key: the first one followed by a blank or the line's
// end, so a value may hold more colons ("description: Use when: ...").
func splitKey(text string) (key, rest string, ok bool) {
	if text == "" || text[0] == '#' {
		return "", "", false
	}
	if q := text[0]; q == '"' || q == '\'' {
		end := strings.IndexByte(text[1:], q)
		if end < 0 {
			return "", "", false
		}
		after := text[end+2:]
		if !strings.HasPrefix(after, ":") || len(after) > 1 && after[1] != ' ' && after[1] != '\t' {
			return "", "", false
		}
		return text[1 : end+1], after[1:], true
	}
	for i := 0; i < len(text); i++ {
		if text[i] == ':' && (i+1 == len(text) || text[i+1] == ' ' || text[i+1] == '\t') {
			key = strings.TrimSpace(text[:i])
			if key == "" || strings.ContainsAny(key[:1], "[{") {
				return "", "", false
			}
			return key, text[i+1:], true
		}
	}
	return "", "", false
}
