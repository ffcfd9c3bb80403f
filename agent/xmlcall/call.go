package xmlcall

import (
	"strconv"
	"strings"
)

// between reads inside a call where a parameter may open or the call end.
func (s *Scanner) between(data string, i int, final bool) int {
	j := strings.IndexByte(data[i:], '<')
	if j < 0 {
		return len(data) // text between parameters is ignored
	}
	i += j
	rest := data[i:]
	if len(rest) < 2 {
		if final {
			return len(data)
		}
		return wait(i)
	}
	switch rest[1] {
	case '/':
		if n, m := matchClose(rest, "tool_call", final); m == matchYes {
			s.finishCall()
			return i + n
		} else if m == matchMore {
			return wait(i)
		}
		// a stray closing tag (</name>): skip it whole; anything else
		// that starts with "</" is skipped two bytes at a time, so a '>'
		// far ahead can never swallow the real </tool_call>.
		n, m := strayClose(rest, final)
		if m == matchMore {
			return wait(i)
		}
		return i + n
	case '!':
		if strings.HasPrefix(rest, "<![CDATA[") {
			s.afterJunk = stBetween
			s.st = stJunkCDATA
			return i + len("<![CDATA[")
		}
		if !final && strings.HasPrefix("<![CDATA[", rest) {
			return wait(i)
		}
		return i + 2
	}
	for _, w := range [...]string{"<tool_call", "<tool_response"} {
		switch matchWord(rest, w, final) {
		case matchYes:
			// The model opened something new before closing this call.
			s.fail(incompleteError(s.call.Name, s.call.ID))
			s.resetCall()
			s.st = stText
			return i
		case matchMore:
			return wait(i)
		}
	}
	tag, ok := parseTag(rest, maxTag)
	if !ok {
		if tag.needMore && !final {
			return wait(i)
		}
		return i + 1
	}
	s.param = tag.name
	if tag.selfClosing {
		s.call.Params = append(s.call.Params, Param{Name: tag.name})
		return i + tag.end
	}
	s.value.Reset()
	s.lastMark = -1
	s.st = stValue
	return i + tag.end
}

// valueText reads a parameter value outside CDATA: entities are decoded,
// a stray '<' or '&' is kept literally.
func (s *Scanner) valueText(data string, i int, final bool) int {
	start := i
	rest := data[i:]
	j := indexSet(rest, &valueStops)
	if j < 0 {
		s.value.WriteString(rest)
		return len(data)
	}
	s.value.WriteString(rest[:j])
	i += j
	rest = data[i:]
	if rest[0] == '&' {
		r, n, m := decodeEntity(rest, final)
		switch m {
		case matchMore:
			return wait(i)
		case matchYes:
			s.value.WriteString(r)
			return i + n
		}
		s.value.WriteByte('&')
		return i + 1
	}
	if strings.HasPrefix(rest, "<![CDATA[") {
		s.st = stCDATA
		return i + len("<![CDATA[")
	}
	if !final && len(rest) < len("<![CDATA[") && strings.HasPrefix("<![CDATA[", rest) {
		return wait(i)
	}
	if n, m := matchClose(rest, s.param, final); m == matchYes {
		// Keep the tag aside until it is known to end the value or not:
		// a value that ends here then needs no copy at all.
		s.mark = s.value.Len()
		s.tail.Reset()
		s.tail.WriteString(rest[:n])
		s.st = stAfterClose
		return i + n
	} else if m == matchMore {
		return wait(i)
	}
	if n, m := matchClose(rest, "tool_call", final); m == matchYes {
		return s.endInValue(data[start:i], i, i+n)
	} else if m == matchMore {
		return wait(i)
	}
	s.value.WriteByte('<')
	return i + 1
}

// endInValue handles </tool_call> met inside a value. The value ends at
// the last closing tag of its own name, and what followed that tag (the
// raw input kept since, plus before, this step's text) is read again as
// more parameters, so that a parameter the tool does not define is still
// seen and reported. Without such a closing tag the call is malformed.
func (s *Scanner) endInValue(before string, at, next int) int {
	if s.lastMark < 0 {
		s.fail(&Error{Code: CodeMalformed, Name: s.call.Name, ID: s.call.ID,
			Message: "tool call " + strconv.Quote(s.call.Name) + " (id " + s.call.ID + "): parameter <" + s.param + "> is not closed before </tool_call>; close every parameter tag"})
		s.resetCall()
		s.st = stText
		return next
	}
	if s.reparse >= maxReparse {
		// Each level reads the rest of the call again; past a few levels
		// the input is adversarial, and the work must stay linear.
		s.fail(&Error{Code: CodeMalformed, Name: s.call.Name, ID: s.call.ID,
			Message: "tool call " + strconv.Quote(s.call.Name) + " (id " + s.call.ID + "): too many parameters whose closing tag is followed by text that is not a parameter; put file content in CDATA"})
		s.resetCall()
		s.st = stText
		return next
	}
	remainder := s.raw.String() + before
	s.endValue(s.lastMark)
	s.st = stBetween
	s.reparse++
	// The remainder is the input just before </tool_call>: offsets in it
	// (StopOffset) count from there.
	base := s.base
	s.base += at - len(remainder)
	s.run(remainder+"</tool_call>", true)
	s.base = base
	s.reparse--
	switch s.st {
	case stText:
	case stStopped, stResponse:
		// The remainder, read as parameters, starts a model-written
		// <tool_response: the call was reported incomplete, and the reply
		// stops (or the response is skipped) as anywhere else.
	default:
		// The remainder opened something of its own (a call, a legacy
		// call) that the appended </tool_call> did not end.
		if s.call != nil {
			s.fail(incompleteError(s.call.Name, s.call.ID))
		}
		s.resetCall()
		s.st = stText
	}
	return next
}

// endValue stores the current parameter with its value cut at n bytes.
func (s *Scanner) endValue(n int) {
	v := s.value.String()[:n]
	s.call.Params = append(s.call.Params, Param{Name: s.param, Value: v})
	s.value.Reset()
	s.tail.Reset()
	s.rawOn = false
	s.raw.Reset()
	s.param = ""
	s.lastMark = -1
}

// cdata copies CDATA content verbatim up to "]]>".
func (s *Scanner) cdata(data string, i int, final bool) int {
	keepValue := s.st == stCDATA
	// Brackets held back by the previous chunk: they may be the start of
	// the "]]>" that ends the section, or content.
	for s.held > 0 && i < len(data) {
		switch c := data[i]; {
		case c == '>' && s.held == 2:
			s.held = 0
			s.endCDATA()
			return i + 1
		case c == ']' && s.held == 2:
			if keepValue {
				s.value.WriteString("]") // "]]]": the first one is content
			}
		case c == ']':
			s.held++
		default:
			if keepValue {
				s.value.WriteString("]]"[:s.held])
			}
			s.held = 0
			continue
		}
		i++
	}
	if i == len(data) {
		if final {
			s.held = 0
		}
		return i
	}
	rest := data[i:]
	j := strings.Index(rest, "]]>")
	if j < 0 {
		// Hold back a trailing "]" or "]]" that may start the terminator,
		// without copying the input: the next chunk decides.
		if !final {
			if strings.HasSuffix(rest, "]]") {
				s.held = 2
			} else if strings.HasSuffix(rest, "]") {
				s.held = 1
			}
		}
		if keepValue {
			s.value.WriteString(rest[:len(rest)-s.held])
		}
		return len(data)
	}
	if keepValue {
		s.value.WriteString(rest[:j])
	}
	s.endCDATA()
	return i + j + 3
}

// endCDATA returns from a CDATA section to the state it was opened in.
func (s *Scanner) endCDATA() {
	if s.st == stCDATA {
		s.st = stValue
	} else {
		s.st = s.afterJunk
	}
}

// afterClose decides whether the closing tag just read ends the value: it
// does when, after optional whitespace, </tool_call> or the opening tag of
// a parameter of the tool follows, its own included (any tag, for an
// unknown tool).
func (s *Scanner) afterClose(data string, i int, final bool) int {
	rest := data[i:]
	k := 0
	for k < len(rest) && isSpace(rest[k]) {
		k++
	}
	s.tail.WriteString(rest[:k])
	i += k
	rest = rest[k:]
	if rest == "" {
		if final {
			s.notTheEnd()
		}
		return len(data)
	}
	if rest[0] != '<' {
		s.notTheEnd()
		return i
	}
	if _, m := matchClose(rest, "tool_call", final); m == matchYes {
		s.endValue(s.mark)
		s.st = stBetween
		return i
	} else if m == matchMore {
		return wait(i)
	}
	for _, w := range [...]string{"<tool_call", "<tool_response"} {
		switch matchWord(rest, w, final) {
		case matchYes:
			s.endValue(s.mark)
			s.st = stBetween
			return i
		case matchMore:
			return wait(i)
		}
	}
	name, m := openTagName(rest, final)
	if m == matchMore {
		return wait(i)
	}
	if m == matchYes && s.siblingParam(name) {
		s.endValue(s.mark)
		s.st = stBetween
		return i
	}
	s.notTheEnd()
	return i
}

// notTheEnd records that the candidate closing tag did not end the value:
// it is content after all (and the fallback end, should no later one
// qualify).
func (s *Scanner) notTheEnd() {
	s.lastMark = s.mark
	t := s.tail.String()
	s.value.WriteString(t)
	s.rawOn = true
	s.raw.Reset()
	s.raw.WriteString(t[strings.IndexByte(t, '>')+1:]) // the spaces after the tag
	s.tail.Reset()
	s.st = stValue
}

// siblingParam reports whether an opening tag called name ends the current
// value: a parameter of a known tool, the current one included (so that
// <content>a</content><content>b</content> is content given twice, never
// the joined text), or any tag for an unknown tool.
func (s *Scanner) siblingParam(name string) bool {
	if !s.known {
		return true
	}
	for _, p := range s.params {
		if p == name {
			return true
		}
	}
	return false
}
