package tts

import (
	"regexp"
	"strings"
	"sync"
)

// Plain is Markdown as the words a listener should hear: the syntax goes,
// the text stays. Headings lose their #, bullets their marker (numbered
// items keep their number), quotes their >, emphasis its ** _ ~~, code
// its backticks and fence lines, links and images keep their text and
// lose their target, reference definitions and rules are dropped. Text
// that is not Markdown comes back as it was, but for those marks.
func Plain(text string) string {
	if !strings.ContainsAny(text, "#*_`[>~-+|") {
		return text
	}
	re := markdownRes()
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	out := lines[:0]
	inFence := false
	for _, line := range lines {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			inFence = !inFence
			continue
		}
		if inFence {
			// Code is read as it is: its stars and underscores are code.
			out = append(out, line)
			continue
		}
		if re.rule.MatchString(trimmed) || re.refDef.MatchString(trimmed) {
			out = append(out, "")
			continue
		}
		line = re.quote.ReplaceAllString(line, "")
		if re.heading.MatchString(line) {
			line = re.closing.ReplaceAllString(re.heading.ReplaceAllString(line, ""), "")
		}
		line = re.bullet.ReplaceAllString(line, "")
		if re.tableRule.MatchString(trimmed) {
			out = append(out, "")
			continue
		}
		if strings.HasPrefix(trimmed, "|") {
			// A table row: its cells, one after another.
			cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
			for i, c := range cells {
				cells[i] = strings.TrimSpace(c)
			}
			line = strings.Join(cells, ", ")
		}
		out = append(out, inline(line, re))
	}
	return strings.Join(out, "\n")
}

// inline removes the marks within a line: code spans keep their text
// as it is; around them links, images and emphasis are read as text.
func inline(line string, re *mdRes) string {
	var b strings.Builder
	for {
		start := strings.IndexByte(line, '`')
		if start < 0 {
			break
		}
		n := start
		for n < len(line) && line[n] == '`' {
			n++
		}
		ticks := line[start:n]
		end := strings.Index(line[n:], ticks)
		if end < 0 {
			break
		}
		b.WriteString(prose(line[:start], re))
		b.WriteString(strings.TrimSpace(line[n : n+end]))
		line = line[n+end+len(ticks):]
	}
	b.WriteString(prose(line, re))
	return b.String()
}

// prose is text outside code spans without its links' targets and its
// emphasis marks.
func prose(s string, re *mdRes) string {
	if s == "" {
		return s
	}
	s = re.image.ReplaceAllString(s, "$1")
	s = re.link.ReplaceAllString(s, "$1")
	s = re.refLink.ReplaceAllString(s, "$1")
	s = re.autolink.ReplaceAllString(s, "$1")
	for _, e := range re.emphasis {
		// Twice: a match takes the space after it, which the next
		// one ("**a** **b**") needs before it.
		s = e.ReplaceAllString(e.ReplaceAllString(s, "$1$2$3"), "$1$2$3")
	}
	return s
}

// mdRes are Plain's patterns, compiled on first use: the package is
// linked into every command, and most never speak.
type mdRes struct {
	rule, refDef, heading, closing, quote, bullet, tableRule *regexp.Regexp
	image, link, refLink, autolink                           *regexp.Regexp
	emphasis                                                 []*regexp.Regexp
}

var markdownRes = sync.OnceValue(func() *mdRes {
	return &mdRes{
		rule:      regexp.MustCompile(`^(\*\s*){3,}$|^(-\s*){3,}$|^(_\s*){3,}$`),
		refDef:    regexp.MustCompile(`^\[[^\]]+\]:\s+\S+`),
		heading:   regexp.MustCompile(`^\s{0,3}#{1,6}(\s+|$)`),
		closing:   regexp.MustCompile(`\s+#+\s*$`),
		quote:     regexp.MustCompile(`^\s{0,3}(>\s?)+`),
		bullet:    regexp.MustCompile(`^\s*[-*+]\s+(\[[ xX]\]\s+)?`),
		tableRule: regexp.MustCompile(`^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?$`),
		image:     regexp.MustCompile(`!\[([^\]]*)\]\([^)]*\)`),
		link:      regexp.MustCompile(`\[([^\]]+)\]\([^)]*\)`),
		refLink:   regexp.MustCompile(`\[([^\]]+)\]\[[^\]]*\]`),
		autolink:  regexp.MustCompile(`<((?:https?|mailto):[^>\s]+)>`),
		// Each keeps what is before and after the marks: a mark must
		// touch its text on the inside and not a letter on the outside,
		// so snake_case and 2 * 3 stay as they are.
		emphasis: []*regexp.Regexp{
			regexp.MustCompile(`(^|[^\w*])\*\*([^*\s](?:[^*]*[^*\s])?)\*\*($|[^\w*])`),
			regexp.MustCompile(`(^|[^\w_])__([^_\s](?:[^_]*[^_\s])?)__($|[^\w_])`),
			regexp.MustCompile(`(^|[^\w~])~~([^~\s](?:[^~]*[^~\s])?)~~($|[^\w~])`),
			regexp.MustCompile(`(^|[^\w*])\*([^*\s](?:[^*]*[^*\s])?)\*($|[^\w*])`),
			regexp.MustCompile(`(^|[^\w_])_([^_\s](?:[^_]*[^_\s])?)_($|[^\w_])`),
		},
	}
})
