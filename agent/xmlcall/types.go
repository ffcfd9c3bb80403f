package xmlcall

import "fmt"

// Error codes the Scanner reports (the protocol's names).
const (
	CodeIncomplete = "CALL_INCOMPLETE"
	CodeMalformed  = "CALL_MALFORMED"
)

// Param is one parameter of a call, with its raw value (entities decoded,
// CDATA unwrapped, no whitespace normalisation).
type Param struct {
	Name  string
	Value string
}

// Call is one complete tool call found in a reply.
type Call struct {
	Name   string
	ID     string  // as written, or assigned by the Scanner when absent
	Params []Param // in order of appearance
	// Legacy is true for the one-line [TOOL:name:{json}] form. A call
	// written as JSON inside <tool_call> is not legacy: it is the same
	// call as the XML form.
	Legacy bool
}

// Args returns the parameters as a map. A Scanner never returns a call
// that gives a parameter twice (that is CALL_MALFORMED); for a Call built
// by hand, the last value wins.
func (c Call) Args() map[string]string {
	m := make(map[string]string, len(c.Params))
	for _, p := range c.Params {
		m[p.Name] = p.Value
	}
	return m
}

// Error is a broken call: cut off before </tool_call> (CALL_INCOMPLETE) or
// unreadable (CALL_MALFORMED). Name and ID are set when they could be read.
type Error struct {
	Code    string
	Name    string
	ID      string
	Message string
}

func (e *Error) Error() string { return e.Message }

// Event is one thing the Scanner found, in reply order: exactly one of
// Text, Call and Err is set.
type Event struct {
	Text string // prose outside calls
	Call *Call
	Err  *Error
}

// ParamLookup returns the parameter names of a registered tool and whether
// the tool is known. The Scanner needs it to decide where a value ends
// (protocol.md §1, "Where a value ends").
type ParamLookup func(tool string) ([]string, bool)

// Attr is one name="value" attribute of a response's <metadata/>.
type Attr struct {
	Name, Value string
}

// Response is the answer to one call, rendered as a <tool_response> block.
type Response struct {
	ID     string
	Name   string
	Params []Param // echoed back; the renderer shortens long values
	// Code is the protocol error code; empty on success.
	Code     string
	Message  string // the error message, or a one-line success summary
	Metadata []Attr
	Content  string // the tool's output, always sent inside CDATA
}

// describe names a call in an error message: tool call "x" (id 2).
func describe(name, id string) string {
	what := fmt.Sprintf("tool call %q", name)
	if id != "" {
		what += fmt.Sprintf(" (id %s)", id)
	}
	return what
}

func incompleteError(name, id string) *Error {
	return &Error{Code: CodeIncomplete, Name: name, ID: id,
		Message: describe(name, id) + " is incomplete: no </tool_call>"}
}
