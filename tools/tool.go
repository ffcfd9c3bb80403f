package tools

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Kind is the type a parameter's raw string value is converted to.
type Kind int

// The parameter kinds of the protocol. Every value arrives as a string; the
// kind says how Validate converts it.
const (
	String  Kind = iota // any text
	Integer             // a base-10 integer, e.g. "42" or "-3"
	Boolean             // true/false (also yes/no, 1/0)
	Enum                // one of Param.Enum, compared case-insensitively
	JSON                // a JSON value, decoded with encoding/json
)

// String returns the name used in the tool catalog and in error messages.
func (k Kind) String() string {
	switch k {
	case Integer:
		return "integer"
	case Boolean:
		return "boolean"
	case Enum:
		return "enum"
	case JSON:
		return "json"
	default:
		return "string"
	}
}

// Param defines one parameter of a tool.
type Param struct {
	Name        string
	Description string
	Kind        Kind
	Required    bool
	Enum        []string // allowed values when Kind is Enum
	// Verbatim parameters (file content, note bodies, text to speak) keep
	// their value as written: only one leading line break and the spaces
	// after the final line break are removed. Other parameters are trimmed.
	Verbatim bool
}

// Definition describes a tool to the model and to the Registry.
type Definition struct {
	Name        string
	Description string
	Params      []Param
	// Writes is true for tools that change something (files, notes,
	// audio). Such a call needs approval and is skipped when an earlier
	// call of the same reply failed.
	Writes bool
	// AutoApproved marks a write nobody is asked about, because it changes
	// nothing that exists (creating a note). It still counts as a write
	// for TOOL_SKIPPED and wherever writes are switched off.
	AutoApproved bool
	// Timeout overrides the Registry's default time limit when non-zero.
	Timeout time.Duration
}

// Param returns the parameter called name.
func (d Definition) Param(name string) (Param, bool) {
	for _, p := range d.Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// ParamNames returns the names of the tool's parameters in definition order.
func (d Definition) ParamNames() []string {
	names := make([]string, len(d.Params))
	for i, p := range d.Params {
		names[i] = p.Name
	}
	return names
}

// Input is a validated call: every value has its parameter's Go type
// (string, int, bool, or the decoded JSON value for Kind JSON). Absent
// optional parameters are absent from Values.
type Input struct {
	CallID string
	Values map[string]any
}

// Tool is one capability the model can call.
type Tool interface {
	Definition() Definition
	// Execute runs a validated call. It returns a Result for anything the
	// model can fix and a Go error only for failures of the program itself
	// (see the package documentation).
	Execute(ctx context.Context, in Input) (Result, error)
}

// Attr is one name="value" pair of a result's <metadata/> element.
type Attr struct {
	Name, Value string
}

// Result is what a tool answers. A Result with a Code is an error the model
// sees; one without is a success.
type Result struct {
	// Code is a protocol error code (see codes.go); empty on success.
	Code string
	// Message is a one-line summary on success ("created notes.md, 12
	// lines") or the error message.
	Message string
	// Metadata is rendered as attributes of <metadata/>, in order.
	Metadata []Attr
	// Content is the tool's main output (file text, listing, diff),
	// always rendered inside CDATA.
	Content string
	// Changed lists the project-relative paths this call wrote.
	Changed []string
	// Alerts are what the person must be told about the call whatever
	// the model makes of it, one sentence each (a git repository the
	// command planted, moved out of the way). The chat's card, agent
	// run's activity lines and its summary show them; Content should say
	// the same to the model.
	Alerts []string
	// Image is a picture for the model beside the text (see Image); nil
	// for none.
	Image *Image
}

// IsError reports whether the result is an error for the model.
func (r Result) IsError() bool { return r.Code != "" }

// Errorf returns an error Result with the given code and message.
func Errorf(code, format string, args ...any) Result {
	return Result{Code: code, Message: oneLine(fmt.Sprintf(format, args...))}
}

// oneLine folds a message onto one line: the protocol's messages are one
// line, and a stray newline from a wrapped OS error must not break that.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}
