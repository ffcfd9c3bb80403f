package xmlcall

import (
	"encoding/json"
	"strings"
)

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
	s.legDepth, s.legStr, s.legEsc = 0, false, false
	s.value.Reset()
	s.st = stLegacy
}

// legacy reads the JSON object of a legacy call, string- and
// escape-aware, so that "}" or "]" inside a string value ends nothing. The
// object ends the call; a "]" right after it is consumed.
func (s *Scanner) legacy(data string, i int, final bool) int {
	if s.legDepth < 0 { // the object is complete: take an optional ']'
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
	start := i
	for i < len(data) {
		if s.legEsc { // the byte after a backslash, maybe in a later chunk
			s.legEsc = false
			i++
			continue
		}
		if s.legStr {
			j := strings.IndexAny(data[i:], `"\`)
			if j < 0 {
				i = len(data)
				break
			}
			i += j
			if data[i] == '\\' {
				s.legEsc = true
			} else {
				s.legStr = false
			}
			i++
			continue
		}
		switch data[i] {
		case '"':
			s.legStr = true
		case '{', '[':
			s.legDepth++
		case '}', ']':
			s.legDepth--
			if s.legDepth == 0 {
				s.value.WriteString(data[start : i+1])
				s.legDepth = -1
				return i + 1
			}
		}
		i++
	}
	s.value.WriteString(data[start:i])
	return i
}

// finishLegacy decodes the JSON object into parameters (non-string values
// become their JSON text: 80 → "80", true → "true") and emits the call.
func (s *Scanner) finishLegacy() {
	params, err := legacyParams(s.value.String())
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
	s.out = append(s.out, Event{Call: s.call})
	s.resetCall()
}

func legacyParams(obj string) ([]Param, error) {
	dec := json.NewDecoder(strings.NewReader(obj))
	if _, err := dec.Token(); err != nil { // '{'
		return nil, err
	}
	var params []Param
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		val := string(raw)
		if len(raw) > 0 && raw[0] == '"' {
			if err := json.Unmarshal(raw, &val); err != nil {
				return nil, err
			}
		} else if val == "null" {
			val = ""
		}
		params = append(params, Param{Name: key, Value: val})
	}
	if _, err := dec.Token(); err != nil { // '}'
		return nil, err
	}
	return params, nil
}
