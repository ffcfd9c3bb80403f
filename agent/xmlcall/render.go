package xmlcall

import (
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/beevik/etree"
)

// echoLimit is how much of a parameter value a response echoes back.
const echoLimit = 200

// Render writes one <tool_response> block per response, in order, the way
// protocol.md §2 shows them. The output is always well-formed XML, whatever
// the responses hold:
//
//   - Tool output (Content) always travels inside CDATA. A "]]>" in it is
//     split across two CDATA sections ("]]" ends one, ">" starts the next),
//     which a reader joins back. So content holding </tool_response>,
//     <tool_call or ]]> cannot end the frame or be mistaken for a call.
//   - Messages, ids, names and metadata are escaped with entities.
//   - Invalid UTF-8 is replaced with U+FFFD, and so are the control
//     characters XML 1.0 forbids (everything below U+0020 except tab, line
//     feed and carriage return, plus U+FFFE and U+FFFF): XML has no way to
//     carry them, and the model never needs them verbatim.
//   - Echoed parameter values are cut to about 200 bytes (on a rune
//     boundary) with a note of their full length; a value holding <, > or
//     & is echoed in CDATA so the model sees it as it wrote it.
//   - A parameter name that is not a plain XML name is echoed as
//     <param name="...">.
func Render(w io.Writer, rs ...Response) error {
	doc := etree.NewDocument()
	doc.WriteSettings = etree.WriteSettings{CanonicalText: true, CanonicalAttrVal: true}
	for i := range rs {
		renderOne(doc, &rs[i])
	}
	doc.Indent(2)
	_, err := doc.WriteTo(w)
	return err
}

// RenderString is Render into a string.
func RenderString(rs ...Response) string {
	var b strings.Builder
	_ = Render(&b, rs...) // a strings.Builder never fails
	return b.String()
}

func renderOne(doc *etree.Document, r *Response) {
	resp := doc.CreateElement("tool_response")
	resp.CreateAttr("id", Sanitize(r.ID))
	call := resp.CreateElement("tool_call")
	call.CreateAttr("name", Sanitize(r.Name))
	for _, p := range r.Params {
		var el *etree.Element
		if validName(p.Name) {
			el = call.CreateElement(p.Name)
		} else {
			el = call.CreateElement("param")
			el.CreateAttr("name", Sanitize(p.Name))
		}
		v := Sanitize(shorten(p.Value, echoLimit))
		if strings.ContainsAny(v, "<>&") {
			el.CreateCData(v)
		} else if v != "" {
			el.CreateText(v)
		}
	}
	result := resp.CreateElement("result")
	if r.Code != "" {
		e := result.CreateElement("error")
		e.CreateAttr("code", Sanitize(r.Code))
		e.CreateText(Sanitize(r.Message))
		if r.Content != "" {
			// What the model needs to fix the call (a tool's definition).
			result.CreateElement("content").CreateCData(Sanitize(r.Content))
		}
		return
	}
	if len(r.Metadata) > 0 {
		md := result.CreateElement("metadata")
		for _, a := range r.Metadata {
			if validName(a.Name) {
				md.CreateAttr(a.Name, Sanitize(a.Value))
			}
		}
	}
	if r.Message != "" {
		result.CreateElement("message").CreateText(Sanitize(r.Message))
	}
	if r.Content != "" {
		result.CreateElement("content").CreateCData(Sanitize(r.Content))
	}
}

// shorten cuts v to about n bytes on a rune boundary, noting the length.
func shorten(v string, n int) string {
	if len(v) <= n {
		return v
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(v[cut]) {
		cut--
	}
	return v[:cut] + "… [" + strconv.Itoa(len(v)) + " bytes in all]"
}

// validName reports whether s is a plain XML name (no namespace colon).
func validName(s string) bool {
	if s == "" || !isNameStart(s[0]) || s[0] == ':' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isNameChar(s[i]) || s[i] == ':' {
			return false
		}
	}
	return true
}

// Sanitize makes s safe to carry in XML: invalid UTF-8 and the characters
// XML 1.0 forbids become U+FFFD. A string that needs nothing is returned
// as is, without copying.
func Sanitize(s string) string {
	if xmlSafe(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || !xmlChar(r) {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func xmlSafe(s string) bool {
	ascii := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
			return false
		}
		if c >= 0x80 {
			ascii = false
		}
	}
	return ascii || (utf8.ValidString(s) && !strings.Contains(s, "\uFFFE") && !strings.Contains(s, "\uFFFF"))
}

func xmlChar(r rune) bool {
	switch {
	case r == '\t' || r == '\n' || r == '\r':
		return true
	case r < 0x20:
		return false
	case r == 0xFFFE || r == 0xFFFF:
		return false
	}
	return true
}

// RenderCall writes c as a model should write it: values holding <, > or &
// go in CDATA (split around "]]>"), others as plain text. Parsing the
// result gives back c's exact values; the system prompt's examples are
// made with it so they cannot drift from the parser.
func RenderCall(c Call) string {
	var b strings.Builder
	b.WriteString(`<tool_call name="`)
	b.WriteString(escapeAttr(c.Name))
	b.WriteByte('"')
	if c.ID != "" {
		b.WriteString(` id="`)
		b.WriteString(escapeAttr(c.ID))
		b.WriteByte('"')
	}
	if len(c.Params) == 0 {
		b.WriteString("/>")
		return b.String()
	}
	b.WriteString(">\n")
	for _, p := range c.Params {
		b.WriteString("<" + p.Name + ">")
		if strings.ContainsAny(p.Value, "<>&") {
			b.WriteString("<![CDATA[")
			b.WriteString(strings.ReplaceAll(p.Value, "]]>", "]]]]><![CDATA[>"))
			b.WriteString("]]>")
		} else {
			b.WriteString(p.Value)
		}
		b.WriteString("</" + p.Name + ">\n")
	}
	b.WriteString("</tool_call>")
	return b.String()
}

func escapeAttr(s string) string {
	return strings.NewReplacer("&", "&amp;", `"`, "&quot;", "<", "&lt;").Replace(s)
}
