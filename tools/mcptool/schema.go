package mcptool

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/agentcli/agent/internal/termtext"
	"github.com/agentcli/agent/tools"
)

// Lengths of what a server may put in the catalog.
const (
	maxToolDesc  = 200
	maxParamDesc = 120
	maxNameLen   = 64
)

// prop is one parameter as the server names and types it.
type prop struct {
	name  string // the JSON property name
	loose bool   // no single type: a value that reads as JSON is JSON, else a string
}

// parsedSchema is what an input schema gives a tool: its parameters, the
// JSON names behind them, and the resolved schema that validates a call.
type parsedSchema struct {
	params   []tools.Param
	props    map[string]prop // by parameter (XML element) name
	resolved *jsonschema.Resolved
}

// parseSchema reads a tool's input schema as the client received it (any
// JSON value). It fails for anything that is not an object schema the
// validator can use: such a tool cannot be called safely.
func parseSchema(raw any) (*parsedSchema, error) {
	data, err := json.Marshal(raw)
	if err != nil {
		return nil, err
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("not a JSON schema: %v", err)
	}
	if s.Type != "object" && !(s.Type == "" && len(s.Types) == 0 && s.Properties != nil) {
		return nil, errors.New(`its type is not "object"`)
	}
	// Most servers (the TypeScript SDK's) declare draft-07; for the
	// keywords tool schemas use, 2020-12 reads them the same way.
	s.Schema = ""
	resolved, err := s.Resolve(nil)
	if err != nil {
		return nil, err
	}
	ps := &parsedSchema{props: map[string]prop{}, resolved: resolved}
	names := make([]string, 0, len(s.Properties))
	for n := range s.Properties {
		names = append(names, n)
	}
	// Required parameters first, in the server's order; then the rest.
	sort.Slice(names, func(i, j int) bool {
		ri, rj := slices.Index(s.Required, names[i]), slices.Index(s.Required, names[j])
		switch {
		case ri >= 0 && rj >= 0:
			return ri < rj
		case ri >= 0 || rj >= 0:
			return ri >= 0
		}
		return names[i] < names[j]
	})
	for _, n := range names {
		ps2 := s.Properties[n]
		x := xmlName(n)
		if x == "" {
			return nil, fmt.Errorf("parameter %q cannot be written as an XML element", n)
		}
		if _, dup := ps.props[x]; dup {
			return nil, fmt.Errorf("parameters %q and %q collide", n, ps.props[x].name)
		}
		p := tools.Param{Name: x, Required: slices.Contains(s.Required, n)}
		loose := false
		if ps2 != nil {
			p.Description = untrustedLine(ps2.Description, maxParamDesc)
			p.Kind, loose = kindOf(ps2)
			if p.Kind == tools.Enum {
				for _, e := range ps2.Enum {
					p.Enum = append(p.Enum, e.(string))
				}
			}
			p.Verbatim = p.Kind == tools.String && !loose
		}
		ps.params = append(ps.params, p)
		ps.props[x] = prop{name: n, loose: loose}
	}
	return ps, nil
}

// kindOf maps a property's JSON type onto the protocol's kinds. Numbers,
// arrays and objects are written as JSON; a property with no single type
// is loose.
func kindOf(s *jsonschema.Schema) (tools.Kind, bool) {
	types := s.Types
	if s.Type != "" {
		types = []string{s.Type}
	}
	types = slices.DeleteFunc(slices.Clone(types), func(t string) bool { return t == "null" })
	if len(types) != 1 {
		return tools.String, true
	}
	switch types[0] {
	case "string":
		if len(s.Enum) > 0 && allStrings(s.Enum) {
			return tools.Enum, false
		}
		return tools.String, false
	case "integer":
		return tools.Integer, false
	case "boolean":
		return tools.Boolean, false
	}
	return tools.JSON, false
}

func allStrings(vs []any) bool {
	for _, v := range vs {
		if _, ok := v.(string); !ok {
			return false
		}
	}
	return true
}

// arguments turns validated values into the JSON arguments of the call and
// checks them against the whole schema (ranges, patterns, nested shapes),
// so that a bad call is refused here with a message, not by the server.
func (ps *parsedSchema) arguments(toolName string, in tools.Input) (map[string]any, *tools.Result) {
	args := make(map[string]any, len(in.Values))
	for x, v := range in.Values {
		p, ok := ps.props[x]
		if !ok {
			continue
		}
		if s, isStr := v.(string); isStr && p.loose {
			var j any
			if json.Unmarshal([]byte(s), &j) == nil {
				v = j
			}
		}
		args[p.name] = v
	}
	// A JSON round trip gives the validator the types it expects
	// (float64, []any, map[string]any).
	data, err := json.Marshal(args)
	if err == nil {
		err = json.Unmarshal(data, &args)
	}
	if err == nil {
		err = ps.resolved.Validate(args)
	}
	if err != nil {
		res := tools.Errorf(tools.CodeSchemaInvalid, "%s: the arguments do not match the tool's schema: %s", toolName, untrustedLine(err.Error(), 300))
		return nil, &res
	}
	return args, nil
}

// xmlName returns n when it can be an XML element name, else n with the
// characters that cannot replaced by _, or "" when nothing usable is left.
func xmlName(n string) string {
	var b strings.Builder
	for i, r := range n {
		ok := r == '_' || r < 128 && (unicode.IsLetter(r) || i > 0 && (unicode.IsDigit(r) || r == '-' || r == '.'))
		if ok {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	x := b.String()
	if strings.Trim(x, "_") == "" || len(x) > maxNameLen || strings.HasPrefix(strings.ToLower(x), "xml") {
		return ""
	}
	return x
}

// safeName makes a server's or tool's name fit a tool name: letters,
// digits, - and _.
func safeName(n string) string {
	n = strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return r
		}
		return '_'
	}, n)
	if len(n) > maxNameLen {
		n = n[:maxNameLen]
	}
	return n
}

// untrustedLine folds text from a server onto one line of at most about n bytes,
// without control or format characters (bidi marks, zero-width ones) that
// could hide what it says.
func untrustedLine(s string, n int) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return ' '
		}
		if !unicode.IsPrint(r) || unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		s = strings.TrimSpace(termtext.RunePrefix(s, n)) + "…"
	}
	return s
}
