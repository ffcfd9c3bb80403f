package tools

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/agentcli/agent/internal/termtext"
)

// Validate converts raw (the parser's strings) into typed values following
// def. It rejects undefined parameters, missing required ones, and values
// of the wrong kind, with a TOOL_SCHEMA_INVALID Result that names the
// parameter and what it expects.
func Validate(def Definition, raw map[string]string) (Input, *Result) {
	values := make(map[string]any, len(raw))
	for name := range raw {
		if _, ok := def.Param(name); !ok {
			res := Errorf(CodeSchemaInvalid, "%s has no parameter %q; its parameters are: %s", def.Name, name, describeParams(def))
			return Input{}, &res
		}
	}
	for _, p := range def.Params {
		s, present := raw[p.Name]
		if present {
			s = Normalize(p, s)
		}
		if !present || (s == "" && p.Kind != String) {
			if p.Required {
				res := Errorf(CodeSchemaInvalid, "%s: missing required parameter %s (%s); its parameters are: %s", def.Name, p.Name, expects(p), describeParams(def))
				return Input{}, &res
			}
			continue
		}
		v, ok := convert(p, s)
		if !ok {
			res := Errorf(CodeSchemaInvalid, "%s: parameter %s must be %s, got %q", def.Name, p.Name, expects(p), shorten(s, 40))
			return Input{}, &res
		}
		values[p.Name] = v
	}
	return Input{Values: values}, nil
}

// Normalize applies the parameter's whitespace rule (protocol.md §1):
// text parameters are trimmed; verbatim ones lose one leading line break
// and the spaces or tabs after the final line break, and nothing else.
func Normalize(p Param, s string) string {
	if !p.Verbatim {
		return strings.TrimSpace(s)
	}
	if strings.HasPrefix(s, "\r\n") {
		s = s[2:]
	} else if strings.HasPrefix(s, "\n") {
		s = s[1:]
	}
	if i := strings.LastIndexByte(s, '\n'); i >= 0 && strings.Trim(s[i+1:], " \t") == "" {
		s = s[:i+1]
	}
	return s
}

func convert(p Param, s string) (any, bool) {
	switch p.Kind {
	case Integer:
		n, err := strconv.Atoi(s)
		return n, err == nil
	case Boolean:
		switch strings.ToLower(s) {
		case "true", "yes", "1":
			return true, true
		case "false", "no", "0":
			return false, true
		}
		return nil, false
	case Enum:
		for _, e := range p.Enum {
			if strings.EqualFold(e, s) {
				return e, true
			}
		}
		return nil, false
	case JSON:
		var v any
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			return nil, false
		}
		return v, true
	default:
		return s, true
	}
}

// expects says in words what a parameter accepts, for error messages.
func expects(p Param) string {
	switch p.Kind {
	case Integer:
		return "an integer"
	case Boolean:
		return "true or false"
	case Enum:
		return "one of " + strings.Join(p.Enum, ", ")
	case JSON:
		return "a JSON value"
	default:
		return "a string"
	}
}

func describeParams(def Definition) string {
	if len(def.Params) == 0 {
		return "(none)"
	}
	parts := make([]string, len(def.Params))
	for i, p := range def.Params {
		req := "optional"
		if p.Required {
			req = "required"
		}
		parts[i] = p.Name + " (" + p.Kind.String() + ", " + req + ")"
	}
	return strings.Join(parts, ", ")
}

func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return termtext.RunePrefix(s, n) + "..."
}
