package web

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// inline renders n as one line of inline markdown: emphasis, code,
// links and images, any blocks inside flattened to spaces.
func (c *conv) inline(n *html.Node) string {
	var b strings.Builder
	c.inlineTo(&b, n)
	return collapse(b.String())
}

func (c *conv) inlineChildren(n *html.Node) string {
	var b strings.Builder
	for ch := range n.ChildNodes() {
		c.inlineTo(&b, ch)
	}
	return collapse(b.String())
}

func (c *conv) inlineTo(b *strings.Builder, n *html.Node) {
	switch n.Type {
	case html.TextNode:
		b.WriteString(n.Data)
		return
	case html.ElementNode:
	default:
		for ch := range n.ChildNodes() {
			c.inlineTo(b, ch)
		}
		return
	}
	if skipped(n) {
		return
	}
	switch n.DataAtom {
	case atom.A:
		b.WriteString(c.link(n))
	case atom.Strong, atom.B:
		b.WriteString(emphasis(c.inlineChildren(n), "**"))
	case atom.Em, atom.I:
		b.WriteString(emphasis(c.inlineChildren(n), "*"))
	case atom.Del, atom.S, atom.Strike:
		b.WriteString(emphasis(c.inlineChildren(n), "~~"))
	case atom.Code, atom.Kbd, atom.Samp, atom.Tt:
		b.WriteString(codeSpan(collapse(rawText(n))))
	case atom.Img:
		b.WriteString(c.image(n))
	case atom.Br:
		b.WriteByte(' ')
	default:
		// A block inside inline text (a card wrapped in a link, a
		// table cell) is set apart by spaces; a span is not.
		sep := pad(blockAtoms[n.DataAtom])
		b.WriteString(sep)
		for ch := range n.ChildNodes() {
			c.inlineTo(b, ch)
		}
		b.WriteString(sep)
	}
}

// blockAtoms are the elements that start a new line in a page.
var blockAtoms = map[atom.Atom]bool{
	atom.P: true, atom.Div: true, atom.Li: true, atom.Ul: true, atom.Ol: true,
	atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true,
	atom.Table: true, atom.Tr: true, atom.Td: true, atom.Th: true, atom.Section: true,
	atom.Article: true, atom.Blockquote: true, atom.Pre: true, atom.Dt: true, atom.Dd: true,
	atom.Header: true, atom.Footer: true, atom.Figure: true, atom.Figcaption: true, atom.Hr: true,
}

// link is [text](absolute URL); only the text for a link within the
// page (#section: a heading's own anchor, a table of contents) or one
// that is not http(s) or mailto (javascript:, a broken href); nothing
// for a link with no text at all (an icon).
func (c *conv) link(n *html.Node) string {
	text := c.inlineChildren(n)
	lead, trail := strings.HasPrefix(text, " "), strings.HasSuffix(text, " ")
	text = strings.TrimSpace(text)
	if text == "" {
		text = strings.TrimSpace(collapse(attr(n, "aria-label")))
	}
	href := strings.TrimSpace(attr(n, "href"))
	if text == "" || href == "" || strings.HasPrefix(href, "#") {
		return pad(lead) + text + pad(trail)
	}
	if u := c.resolve(href); u != "" {
		text = "[" + text + "](" + u + ")"
	}
	return pad(lead) + text + pad(trail)
}

// image is ![alt](URL), or nothing for an image without alt text.
func (c *conv) image(n *html.Node) string {
	alt := strings.TrimSpace(collapse(attr(n, "alt")))
	if alt == "" {
		return ""
	}
	if u := c.resolve(attr(n, "src")); u != "" && !strings.HasPrefix(u, "mailto:") {
		return " ![" + alt + "](" + u + ") "
	}
	return " " + alt + " "
}

// resolve makes href absolute against the page; "" unless it is http(s)
// or mailto.
func (c *conv) resolve(href string) string {
	href = strings.TrimSpace(href)
	if href == "" {
		return ""
	}
	u, err := c.base.Parse(href)
	if err != nil || u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "mailto" {
		return ""
	}
	return linkEscaper.Replace(u.String())
}

// linkEscaper escapes what would end a markdown link's URL early.
var linkEscaper = strings.NewReplacer("(", "%28", ")", "%29", " ", "%20")

func emphasis(s, mark string) string {
	lead, trail := strings.HasPrefix(s, " "), strings.HasSuffix(s, " ")
	t := strings.TrimSpace(s)
	if t == "" {
		return s
	}
	return pad(lead) + mark + t + mark + pad(trail)
}

// codeSpan quotes s in enough backticks that none inside ends it.
func codeSpan(s string) string {
	t := strings.TrimSpace(s)
	if t == "" {
		return s
	}
	ticks := "`"
	for strings.Contains(t, ticks) {
		ticks += "`"
	}
	if len(ticks) > 1 || strings.HasPrefix(t, "`") || strings.HasSuffix(t, "`") {
		t = " " + t + " "
	}
	return pad(strings.HasPrefix(s, " ")) + ticks + t + ticks + pad(strings.HasSuffix(s, " "))
}

func pad(b bool) string {
	if b {
		return " "
	}
	return ""
}
