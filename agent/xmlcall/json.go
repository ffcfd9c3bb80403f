package xmlcall

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
)

// jsonScan follows a JSON object as it streams in, string- and
// escape-aware, so that a brace, a bracket or "</tool_call>" inside a
// string ends nothing. The legacy form and JSON call bodies share it.
type jsonScan struct {
	depth    int  // open braces and brackets; -1 once the object has closed
	str, esc bool // inside a string; right after a backslash in one
}

// jsonStop says why jsonScan.scan returned.
type jsonStop int

const (
	jsonMore jsonStop = iota // the data ended inside the object
	jsonDone                 // the object closed just before the returned index
	jsonLT                   // a '<' is at the returned index (only when asked for)
)

// scan advances through data from i. With lt it also stops at every '<',
// inside a string or not, for the caller to decide.
func (j *jsonScan) scan(data string, i int, lt bool) (int, jsonStop) {
	strStops := `"\`
	if lt {
		strStops = `"\<`
	}
	for i < len(data) {
		if j.esc { // the byte after a backslash, maybe in a later chunk
			j.esc = false
			i++
			continue
		}
		if j.str {
			k := strings.IndexAny(data[i:], strStops)
			if k < 0 {
				return len(data), jsonMore
			}
			i += k
			switch data[i] {
			case '\\':
				j.esc = true
			case '"':
				j.str = false
			default:
				return i, jsonLT
			}
			i++
			continue
		}
		switch data[i] {
		case '"':
			j.str = true
		case '{', '[':
			j.depth++
		case '}', ']':
			j.depth--
			if j.depth == 0 {
				j.depth = -1
				return i + 1, jsonDone
			}
		case '<':
			if lt {
				return i, jsonLT
			}
		}
		i++
	}
	return i, jsonMore
}

// jsonArgs turns a JSON object into parameters, keys in the order
// written. A string value is taken decoded; any other value becomes its
// compact JSON text (80 → "80", true → "true", null → "null",
// {"a": [1, 2]} → `{"a":[1,2]}`).
func jsonArgs(obj string) ([]Param, error) {
	dec := json.NewDecoder(strings.NewReader(obj))
	if tok, err := dec.Token(); err != nil {
		return nil, err
	} else if tok != json.Delim('{') {
		return nil, errors.New("the arguments are not a JSON object")
	}
	var params []Param
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		val, err := jsonValue(dec)
		if err != nil {
			return nil, err
		}
		params = append(params, Param{Name: key, Value: val})
	}
	if _, err := dec.Token(); err != nil { // '}'
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("text after the JSON object")
	}
	return params, nil
}

// jsonValue reads the next value of dec as a parameter value.
func jsonValue(dec *json.Decoder) (string, error) {
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return "", err
	}
	if raw[0] == '"' {
		var s string
		err := json.Unmarshal(raw, &s)
		return s, err
	}
	if raw[0] != '{' && raw[0] != '[' {
		return string(raw), nil // a number, true, false or null: already compact
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return "", err
	}
	return b.String(), nil
}

// jsonCall reads the body of a <tool_call> without a name attribute as
// the JSON form local models are trained on (Qwen, Hermes):
// {"name": "read_file", "arguments": {"file_path": "a"}}, arguments being
// an object or a string holding one. Other keys are ignored.
func jsonCall(body string) (name string, params []Param, err error) {
	dec := json.NewDecoder(strings.NewReader(body))
	if _, err := dec.Token(); err != nil { // '{': the scanner saw it
		return "", nil, err
	}
	var args string
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return "", nil, err
		}
		key, _ := tok.(string)
		if (key == "name" || key == "arguments") && seen[key] {
			return "", nil, errors.New(`"` + key + `" given twice`)
		}
		seen[key] = true
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return "", nil, err
		}
		switch key {
		case "name":
			if raw[0] != '"' || json.Unmarshal(raw, &name) != nil || strings.TrimSpace(name) == "" {
				return "", nil, errors.New(`"name" must be a non-empty string`)
			}
			name = strings.TrimSpace(name)
		case "arguments":
			args = string(raw)
			if raw[0] == '"' {
				if err := json.Unmarshal(raw, &args); err != nil {
					return "", nil, err
				}
			}
		}
	}
	if _, err := dec.Token(); err != nil { // '}'
		return "", nil, err
	}
	if !seen["name"] || !seen["arguments"] {
		return "", nil, errors.New(`the object needs both "name" and "arguments"`)
	}
	params, err = jsonArgs(args)
	if err != nil {
		return "", nil, errors.New(`"arguments" must be a JSON object, or a string holding one: ` + err.Error())
	}
	return name, params, nil
}

// nameless starts the body of a <tool_call> without a name attribute. A
// body whose first byte after whitespace is '{' is read as the JSON form;
// anything else as parameters, which end as CALL_MALFORMED.
func (s *Scanner) nameless(data string, i int) int {
	for i < len(data) && isSpace(data[i]) {
		i++ // ignored, as between parameters
	}
	if i == len(data) {
		return i
	}
	if data[i] == '{' {
		s.js = jsonScan{}
		s.value.Reset()
		s.st = stJSON
	} else {
		s.st = stBetween
	}
	return i
}

// jsonBody reads the JSON object of a nameless call into value. Inside a
// string everything is content except </tool_call>, which ends the call
// there (as outside CDATA in the XML form). A '<' outside a string is not
// JSON: the body is then read as parameters from there, so a
// <tool_response or <tool_call the model starts is seen as usual.
func (s *Scanner) jsonBody(data string, i int, final bool) int {
	for {
		n, stop := s.js.scan(data, i, true)
		s.value.WriteString(data[i:n])
		switch stop {
		case jsonMore:
			return n
		case jsonDone:
			s.st = stJSONEnd
			return n
		}
		if s.js.str {
			_, m := matchClose(data[n:], "tool_call", final)
			if m == matchMore {
				return wait(n)
			}
			if m == matchNo {
				s.value.WriteByte('<') // content of a string
				i = n + 1
				continue
			}
			s.notJSON("</tool_call> inside a string of it; a value that holds that tag needs the XML form with CDATA")
			return n
		}
		s.notJSON("a '<' outside its strings")
		return n
	}
}

// jsonEnd expects </tool_call> after a nameless call's JSON object.
func (s *Scanner) jsonEnd(data string, i int, final bool) int {
	for i < len(data) && isSpace(data[i]) {
		i++
	}
	if i == len(data) {
		return i
	}
	n, m := matchClose(data[i:], "tool_call", final)
	switch m {
	case matchMore:
		return wait(i)
	case matchNo:
		s.notJSON("text after the object")
		return i
	}
	name, params, err := jsonCall(s.value.String())
	if err != nil {
		s.jsonWhy = err.Error()
		s.finishCall() // CALL_MALFORMED, with the reason
		return i + n
	}
	s.call.Name = name
	s.call.Params = params
	s.emitCall("give each parameter once")
	s.resetCall()
	s.st = stText
	return i + n
}

// notJSON gives up reading a nameless call's body as JSON: the rest is
// read as parameters, and the call ends as CALL_MALFORMED with why.
func (s *Scanner) notJSON(why string) {
	s.value.Reset()
	s.jsonWhy = why
	s.st = stBetween
}
