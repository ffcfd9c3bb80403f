package xmlcall

import "strings"

// matchLegacy checks for the one-line form [TOOL:name:{json}] at the
// start of s, and returns the name and the index of the '{'.
func matchLegacy(s string, final bool) (name string, brace int, m matchResult) {
	const prefix = "[TOOL:"
	if len(s) < len(prefix) {
		if !final && strings.HasPrefix(prefix, s) {
			return "", 0, matchMore
		}
		return "", 0, matchNo
	}
	if s[:len(prefix)] != prefix {
		return "", 0, matchNo
	}
	k := len(prefix)
	for k < len(s) && k < len(prefix)+maxLegName && isNameChar(s[k]) && s[k] != ':' {
		k++
	}
	if k == len(s) {
		if final || k >= len(prefix)+maxLegName {
			return "", 0, matchNo
		}
		return "", 0, matchMore
	}
	name = s[len(prefix):k]
	if name == "" || s[k] != ':' {
		return "", 0, matchNo
	}
	k++
	for k < len(s) && k < len(prefix)+maxLegName+maxTag && isSpace(s[k]) {
		k++
	}
	if k == len(s) {
		if final {
			return "", 0, matchNo
		}
		return "", 0, matchMore
	}
	if s[k] != '{' {
		return "", 0, matchNo
	}
	return name, k, matchYes
}

// startLegacy begins reading the JSON object of a legacy call.
func (s *Scanner) startLegacy(name string) {
	s.call = &Call{Name: name, Legacy: true}
	s.legName = name
	s.js = jsonScan{}
	s.value.Reset()
	s.st = stLegacy
}

// legacy reads the JSON object of a legacy call, string- and
// escape-aware, so that "}" or "]" inside a string value ends nothing. The
// object ends the call; a "]" right after it is consumed.
func (s *Scanner) legacy(data string, i int, final bool) int {
	if s.js.depth < 0 { // the object is complete: take an optional ']'
		for i < len(data) && isSpace(data[i]) {
			i++
		}
		if i == len(data) && !final {
			return i
		}
		if i < len(data) && data[i] == ']' {
			i++
		}
		s.finishLegacy()
		return i
	}
	n, _ := s.js.scan(data, i, false)
	s.value.WriteString(data[i:n])
	return n
}

// finishLegacy decodes the JSON object into parameters (see jsonArgs) and
// emits the call.
func (s *Scanner) finishLegacy() {
	params, err := jsonArgs(s.value.String())
	s.value.Reset()
	s.st = stText
	if err != nil {
		s.fail(&Error{Code: CodeMalformed, Name: s.legName,
			Message: "legacy call [TOOL:" + s.legName + ":...] has invalid JSON arguments (" + err.Error() + "); prefer the <tool_call> form"})
		s.resetCall()
		return
	}
	s.call.Params = params
	s.assignID()
	s.emitCall("give each parameter once")
	s.resetCall()
}
