package web

import (
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// toMarkdown turns a parsed HTML page into markdown for a model to read:
// headings, paragraphs, lists, links with absolute URLs, code blocks and
// simple tables, without scripts, styles, navigation or hidden parts. It
// renders the page's <main> when it has one, else its <body>. base is the
// page's URL, for relative links (a <base href> overrides it).
func toMarkdown(doc *html.Node, base *url.URL) (text, title string) {
	head := find(doc, atom.Head)
	if head != nil {
		if t := find(head, atom.Title); t != nil {
			title = strings.TrimSpace(collapse(rawText(t)))
		}
		if b := find(head, atom.Base); b != nil {
			if u, err := base.Parse(attr(b, "href")); err == nil && (u.Scheme == "http" || u.Scheme == "https") {
				base = u
			}
		}
	}
	root := mainPart(doc)
	c := &conv{base: base, atStart: true}
	c.walk(root)
	return c.out.String(), title
}

// mainPart is the first <main> (or role="main") with text in it, else
// the body, else the whole document.
func mainPart(doc *html.Node) *html.Node {
	for n := range doc.Descendants() {
		if n.Type == html.ElementNode && (n.DataAtom == atom.Main || attr(n, "role") == "main") && !skipped(n) && strings.TrimSpace(rawText(n)) != "" {
			return n
		}
	}
	if b := find(doc, atom.Body); b != nil {
		return b
	}
	return doc
}

// level is one open block that prefixes its lines: a list item ("- "
// on its first line, two spaces on the others) or a quote ("> ").
type level struct {
	first, cont string
	used        bool // the first line was written
}

// conv writes markdown as it walks the page. Text is written word-wise:
// line breaks and spaces are owed and paid only when more text follows,
// so empty elements leave no blank lines behind.
type conv struct {
	base    *url.URL
	out     strings.Builder
	levels  []level
	breaks  int  // line breaks owed before the next text (2: a blank line)
	space   bool // a space owed before the next text on this line
	atStart bool // nothing written on the current line yet
}

// block asks for n line breaks before what follows: 1 starts a line, 2
// a paragraph. The first block inside a list item starts on its marker's
// line.
func (c *conv) block(n int) {
	if len(c.levels) > 0 && !c.levels[len(c.levels)-1].used && c.breaks > 0 {
		return
	}
	c.breaks = max(c.breaks, n)
}

// flush pays the owed line breaks and writes the line's prefix.
func (c *conv) flush() {
	if c.out.Len() == 0 {
		c.breaks = 0
		c.atStart = true
	}
	if c.breaks > 0 {
		c.out.WriteByte('\n')
		for i := 1; i < c.breaks; i++ {
			var p strings.Builder
			for _, l := range c.levels {
				p.WriteString(l.cont)
			}
			c.out.WriteString(strings.TrimRight(p.String(), " "))
			c.out.WriteByte('\n')
		}
		c.breaks, c.space, c.atStart = 0, false, true
	}
	if c.atStart {
		for i := range c.levels {
			l := &c.levels[i]
			if l.used {
				c.out.WriteString(l.cont)
			} else {
				c.out.WriteString(l.first)
				l.used = true
			}
		}
	}
}

// write adds inline markdown s (white space already collapsed).
func (c *conv) write(s string) {
	if s == "" {
		return
	}
	lead, trail := s[0] == ' ', s[len(s)-1] == ' '
	s = strings.TrimSpace(s)
	if s == "" || lead {
		c.space = c.space || !c.atStart
		if s == "" {
			return
		}
	}
	c.flush()
	if c.space && !c.atStart {
		c.out.WriteByte(' ')
	}
	c.out.WriteString(s)
	c.space, c.atStart = trail, false
}

// line writes s as one whole line, as it is (code, table rows).
func (c *conv) line(s string) {
	c.breaks = max(c.breaks, 1)
	if c.out.Len() == 0 {
		c.breaks = 0
	}
	c.flush()
	c.out.WriteString(s)
	c.atStart, c.space = false, false
	c.breaks = 1
}

func (c *conv) push(first, cont string) { c.levels = append(c.levels, level{first: first, cont: cont}) }
func (c *conv) pop()                    { c.levels = c.levels[:len(c.levels)-1] }

func (c *conv) children(n *html.Node) {
	for ch := range n.ChildNodes() {
		c.walk(ch)
	}
}

func (c *conv) walk(n *html.Node) {
	switch n.Type {
	case html.TextNode:
		c.write(collapse(n.Data))
		return
	case html.ElementNode:
	default:
		c.children(n)
		return
	}
	if skipped(n) {
		return
	}
	switch a := n.DataAtom; a {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		c.block(2)
		if t := strings.TrimSpace(c.inline(n)); t != "" {
			c.write(strings.Repeat("#", int(a.String()[1]-'0')) + " " + t)
		}
		c.block(2)
	case atom.P, atom.Section, atom.Article, atom.Main, atom.Aside, atom.Address, atom.Fieldset, atom.Form, atom.Details:
		c.block(2)
		c.children(n)
		c.block(2)
	case atom.Div, atom.Figure, atom.Figcaption, atom.Summary, atom.Header, atom.Footer, atom.Dt, atom.Tr, atom.Center, atom.Caption:
		c.block(1)
		c.children(n)
		c.block(1)
	case atom.Br:
		c.breaks = max(c.breaks, 1)
	case atom.Hr:
		c.block(2)
		c.line("---")
		c.block(2)
	case atom.Ul, atom.Ol, atom.Menu:
		c.list(n)
	case atom.Li:
		c.item(n, "- ")
	case atom.Dd:
		c.item(n, ": ")
	case atom.Blockquote:
		c.block(2)
		c.push("> ", "> ")
		c.children(n)
		c.pop()
		c.block(2)
	case atom.Pre:
		c.pre(n)
	case atom.Table:
		c.table(n)
	case atom.A, atom.Strong, atom.B, atom.Em, atom.I, atom.Code, atom.Kbd, atom.Samp, atom.Tt, atom.Img, atom.Del, atom.S, atom.Strike:
		c.write(c.inline(n))
	default:
		c.children(n)
	}
}

// list writes a ul or ol, numbering an ol's items from its start.
func (c *conv) list(n *html.Node) {
	nested := len(c.levels) > 0
	if nested {
		c.block(1)
	} else {
		c.block(2)
	}
	num, ordered := 1, n.DataAtom == atom.Ol
	if s, err := strconv.Atoi(attr(n, "start")); err == nil {
		num = s
	}
	for ch := range n.ChildNodes() {
		if ch.Type == html.ElementNode && ch.DataAtom == atom.Li && !skipped(ch) {
			marker := "- "
			if ordered {
				marker = strconv.Itoa(num) + ". "
				num++
			}
			c.item(ch, marker)
			continue
		}
		c.walk(ch)
	}
	if nested {
		c.block(1)
	} else {
		c.block(2)
	}
}

// item writes one list item (or definition) under its marker, its other
// lines indented to the marker's width.
func (c *conv) item(n *html.Node, marker string) {
	c.block(1)
	c.breaks = max(c.breaks, 1)
	c.push(marker, strings.Repeat(" ", len(marker)))
	c.children(n)
	c.pop()
	c.block(1)
}

// pre writes a fenced code block, with the language a class such as
// "language-go" names.
func (c *conv) pre(n *html.Node) {
	text := strings.Trim(preText(n), "\n")
	if strings.TrimSpace(text) == "" {
		return
	}
	lang := codeLang(n)
	if code := find(n, atom.Code); lang == "" && code != nil {
		lang = codeLang(code)
	}
	fence := "```"
	for strings.Contains(text, fence) {
		fence += "`"
	}
	c.block(2)
	c.line(fence + lang)
	for _, l := range strings.Split(text, "\n") {
		c.line(strings.TrimRight(l, " \t\r"))
	}
	c.line(fence)
	c.block(2)
}

// codeLang is the language in an element's class ("language-go",
// "lang-go", "highlight-source-go" are go); "" when none.
func codeLang(n *html.Node) string {
	for _, cl := range strings.Fields(attr(n, "class")) {
		for _, p := range []string{"language-", "lang-", "highlight-source-"} {
			if l, ok := strings.CutPrefix(cl, p); ok && l != "" {
				return l
			}
		}
	}
	return ""
}

// table writes a table as markdown rows, the first row as the header. A
// table used for layout (one column, or tables inside it) is written as
// its blocks instead.
func (c *conv) table(n *html.Node) {
	var rows [][]string
	cols := 0
	layout := false
	for r := range n.Descendants() {
		if r.Type != html.ElementNode {
			continue
		}
		if r.DataAtom == atom.Table {
			layout = true
			break
		}
		if r.DataAtom != atom.Tr || skipped(r) || nearestTable(r) != n {
			continue
		}
		var row []string
		for cell := range r.ChildNodes() {
			if cell.Type == html.ElementNode && (cell.DataAtom == atom.Td || cell.DataAtom == atom.Th) && !skipped(cell) {
				t := strings.TrimSpace(c.inline(cell))
				row = append(row, strings.ReplaceAll(t, "|", `\|`))
			}
		}
		cols = max(cols, len(row))
		rows = append(rows, row)
	}
	if layout || cols <= 1 {
		c.block(2)
		c.children(n)
		c.block(2)
		return
	}
	c.block(2)
	for i, row := range rows {
		for len(row) < cols {
			row = append(row, "")
		}
		c.line("| " + strings.Join(row, " | ") + " |")
		if i == 0 {
			c.line("|" + strings.Repeat(" --- |", cols))
		}
	}
	c.block(2)
}

func nearestTable(n *html.Node) *html.Node {
	for p := range n.Ancestors() {
		if p.Type == html.ElementNode && p.DataAtom == atom.Table {
			return p
		}
	}
	return nil
}
