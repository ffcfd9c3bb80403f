package xmlcall

import (
	"strconv"
	"strings"
)

// text scans prose for the start of a call, a legacy call or a
// model-written response. The run of prose is emitted as one substring of
// data, so a long reply fed whole is never copied.
func (s *Scanner) text(data string, i int, final bool) int {
	start := i
	for {
		j := indexSet(data[i:], &textStops)
		if j < 0 {
			s.emitText(data[start:])
			return len(data)
		}
		i += j
		rest := data[i:]
		if rest[0] == '[' {
			name, brace, m := matchLegacy(rest, final)
			if m == matchNo {
				i++ // a literal '[' in prose
				continue
			}
			s.emitText(data[start:i])
			if m == matchMore {
				return wait(i)
			}
			s.startLegacy(name)
			return i + brace
		}
		m := matchWord(rest, "<tool_call", final)
		isCall := m != matchNo
		if !isCall {
			m = matchWord(rest, "<tool_response", final)
		}
		if m == matchNo {
			i++ // a literal '<' in prose
			continue
		}
		s.emitText(data[start:i])
		switch {
		case m == matchMore:
			return wait(i)
		case isCall:
			return s.opener(data, i, final)
		default:
			return s.startResponse(data, i)
		}
	}
}

// matchResult says whether a keyword is at the start of the input.
type matchResult int

const (
	matchNo matchResult = iota
	matchYes
	matchMore // the input ends inside what could still be the keyword
)

// matchWord reports whether s starts with word followed by a delimiter
// (whitespace, '>', or '/'), so that <tool_calls> is not <tool_call.
func matchWord(s, word string, final bool) matchResult {
	if len(s) < len(word) {
		if !final && strings.HasPrefix(word, s) {
			return matchMore
		}
		return matchNo
	}
	if s[:len(word)] != word {
		return matchNo
	}
	if len(s) == len(word) {
		if final {
			return matchYes // a cut-off opener is still an opener
		}
		return matchMore
	}
	switch s[len(word)] {
	case ' ', '\t', '\r', '\n', '>', '/':
		return matchYes
	}
	return matchNo
}

// opener reads a <tool_call ...> opener at data[i:] and starts the call.
func (s *Scanner) opener(data string, i int, final bool) int {
	tag, ok := parseTag(data[i:], maxOpener)
	if !ok {
		if tag.needMore && !final {
			return wait(i)
		}
		if tag.needMore { // the stream ended inside the opener
			s.call = &Call{Name: tag.attr("name")}
			s.st = stBetween
			return len(data)
		}
		s.fail(&Error{Code: CodeMalformed,
			Message: `unreadable <tool_call> opener: write <tool_call name="TOOL" id="N"> with quoted attribute values`})
		return i + len("<tool_call")
	}
	s.call = &Call{Name: strings.TrimSpace(tag.attr("name")), ID: strings.TrimSpace(tag.attr("id"))}
	if s.call.Name != "" && s.lookup != nil {
		s.params, s.known = s.lookup(s.call.Name)
	}
	s.assignID()
	if tag.selfClosing {
		s.finishCall()
		return i + tag.end
	}
	s.st = stBetween
	if s.call.Name == "" {
		s.st = stNameless // maybe the JSON form: see nameless
	}
	return i + tag.end
}

func (s *Scanner) assignID() {
	if s.ids == nil {
		s.ids = make(map[string]bool)
	}
	if s.call.ID == "" {
		for {
			s.autoSeq++
			id := s.IDPrefix + "auto-" + strconv.Itoa(s.autoSeq)
			if !s.ids[id] {
				s.call.ID = id
				break
			}
		}
	}
	s.ids[s.call.ID] = true
}

// finishCall emits the call (or CALL_MALFORMED when it has no name) and
// returns to prose.
func (s *Scanner) finishCall() {
	c := s.call
	if c.Name == "" {
		msg := `tool call without a name attribute: write <tool_call name="TOOL" id="N"> with one child element per parameter`
		if s.jsonWhy != "" {
			msg = `tool call without a name attribute, and its body is not a JSON object with "name" and "arguments" (` +
				s.jsonWhy + `): write <tool_call name="TOOL" id="N"> with one child element per parameter`
		}
		s.fail(&Error{Code: CodeMalformed, ID: c.ID, Message: msg})
	} else {
		s.emitCall("put text that holds tags in CDATA")
	}
	s.resetCall()
	s.st = stText
}

// emitCall emits the finished call, or CALL_MALFORMED when it gives a
// parameter twice: the agent never guesses which value was meant. hint
// says how to avoid it in the form the call was written in.
func (s *Scanner) emitCall(hint string) {
	c := s.call
	if name, ok := repeatedParam(c.Params); ok {
		s.fail(&Error{Code: CodeMalformed, Name: c.Name, ID: c.ID,
			Message: describe(c.Name, c.ID) + ": parameter " + name + " given twice; " + hint})
		return
	}
	s.out = append(s.out, Event{Call: c})
}

// repeatedParam returns the first parameter name given a second time.
func repeatedParam(ps []Param) (string, bool) {
	if len(ps) <= 16 { // the usual case: no map
		for i := 1; i < len(ps); i++ {
			for _, q := range ps[:i] {
				if q.Name == ps[i].Name {
					return q.Name, true
				}
			}
		}
		return "", false
	}
	seen := make(map[string]bool, len(ps))
	for _, q := range ps {
		if seen[q.Name] {
			return q.Name, true
		}
		seen[q.Name] = true
	}
	return "", false
}

func (s *Scanner) resetCall() {
	s.held = 0
	s.rawOn = false
	s.raw.Reset()
	s.call = nil
	s.known = false
	s.params = nil
	s.param = ""
	s.value.Reset()
	s.tail.Reset()
	s.lastMark = -1
	s.js = jsonScan{}
	s.jsonWhy = ""
}
