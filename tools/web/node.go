package web

import (
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// skippedAtoms are elements that hold no readable text: scripts,
// styles, embedded things, form controls, navigation.
var skippedAtoms = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true,
	atom.Head: true, atom.Svg: true, atom.Math: true, atom.Iframe: true, atom.Object: true,
	atom.Embed: true, atom.Canvas: true, atom.Audio: true, atom.Video: true, atom.Map: true,
	atom.Nav: true, atom.Button: true, atom.Input: true, atom.Select: true,
	atom.Textarea: true, atom.Option: true, atom.Dialog: true, atom.Link: true, atom.Meta: true,
}

// voidAtoms are the skipped elements that never have an end tag.
var voidAtoms = map[atom.Atom]bool{atom.Input: true, atom.Link: true, atom.Meta: true, atom.Embed: true}

// skipped reports whether n is left out: a skipped element, something
// hidden, a navigation role, or the page's own footer (one outside any
// article or main part).
func skipped(n *html.Node) bool {
	if n.Type != html.ElementNode {
		return false
	}
	if skippedAtoms[n.DataAtom] || n.DataAtom == 0 && n.Namespace == "" && n.Data == "search" {
		return true
	}
	if attr(n, "aria-hidden") == "true" || hasAttr(n, "hidden") {
		return true
	}
	switch attr(n, "role") {
	case "navigation", "search", "menu", "menubar", "banner", "contentinfo":
		return true
	}
	if st := strings.ReplaceAll(strings.ToLower(attr(n, "style")), " ", ""); strings.Contains(st, "display:none") || strings.Contains(st, "visibility:hidden") {
		return true
	}
	if n.DataAtom == atom.Footer {
		for p := range n.Ancestors() {
			if p.Type == html.ElementNode && (p.DataAtom == atom.Article || p.DataAtom == atom.Main) {
				return false
			}
		}
		return true
	}
	return false
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return true
		}
	}
	return false
}

// find is the first element a under n, n included.
func find(n *html.Node, a atom.Atom) *html.Node {
	if n.Type == html.ElementNode && n.DataAtom == a {
		return n
	}
	for d := range n.Descendants() {
		if d.Type == html.ElementNode && d.DataAtom == a {
			return d
		}
	}
	return nil
}

// rawText is all the text under n, as written.
func rawText(n *html.Node) string {
	var b strings.Builder
	for d := range n.Descendants() {
		if d.Type == html.TextNode {
			b.WriteString(d.Data)
		}
	}
	return b.String()
}

// preText is the text of a pre block, with <br> as line breaks and
// hidden parts (a copy button's label) left out.
func preText(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for ch := range n.ChildNodes() {
			switch {
			case ch.Type == html.TextNode:
				b.WriteString(ch.Data)
			case ch.Type == html.ElementNode && ch.DataAtom == atom.Br:
				b.WriteByte('\n')
			case ch.Type == html.ElementNode && !skipped(ch):
				walk(ch)
			}
		}
	}
	walk(n)
	return b.String()
}

// collapse turns every run of white space (no-break spaces included)
// into one space.
func collapse(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	if space {
		b.WriteByte(' ')
	}
	return b.String()
}

// plainText is the text of a page the parser gave up on (elements nested
// beyond its limit of 512): its words, a line per block, without scripts
// and styles. The tokenizer it uses keeps no stack, so no page is too
// deep for it.
func plainText(page string) string {
	z := html.NewTokenizer(strings.NewReader(page))
	var b strings.Builder
	skip := 0 // depth inside elements whose text is not text (script, style)
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			var lines []string
			for l := range strings.SplitSeq(b.String(), "\n") {
				if l = strings.TrimSpace(l); l != "" {
					lines = append(lines, l)
				}
			}
			return strings.Join(lines, "\n")
		case html.TextToken:
			if skip == 0 {
				b.WriteString(collapse(string(z.Text())))
			}
		case html.StartTagToken, html.EndTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			if skippedAtoms[a] && tt != html.SelfClosingTagToken && !voidAtoms[a] {
				if tt == html.StartTagToken {
					skip++
				} else {
					skip = max(skip-1, 0)
				}
			}
			if blockAtoms[a] || a == atom.Br {
				b.WriteByte('\n')
			}
		}
	}
}
