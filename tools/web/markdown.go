package web

import (
	"net/url"
	"strconv"
	"strings"
	"unicode"

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
	s := u.String()
	return strings.NewReplacer("(", "%28", ")", "%29", " ", "%20").Replace(s)
}

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

// skippedAtoms are elements that hold no readable text: scripts,
// styles, embedded things, form controls, navigation.
var skippedAtoms = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true,
	atom.Head: true, atom.Svg: true, atom.Math: true, atom.Iframe: true, atom.Object: true,
	atom.Embed: true, atom.Canvas: true, atom.Audio: true, atom.Video: true, atom.Map: true,
	atom.Nav: true, atom.Button: true, atom.Input: true, atom.Select: true,
	atom.Textarea: true, atom.Option: true, atom.Dialog: true, atom.Link: true, atom.Meta: true,
}

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
			if skippedAtoms[a] && tt != html.SelfClosingTagToken {
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
