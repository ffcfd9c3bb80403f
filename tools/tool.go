package tools

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/agentcli/agent/internal/termtext"
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
	// Path marks a parameter whose value is a file or folder of the
	// project, relative to its root: the user's path rules
	// (permissions.allow and deny) judge a write by it, and the
	// instructions file of its folder (a nested AGENTS.md) is given to
	// the model after the call.
	Path bool
	// Command marks a parameter whose value is a command line the tool
	// runs: the user's command rules ("run_command:git push") judge it
	// as a shell would read it.
	Command bool
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
	// NeverAutoApproved marks a write only a person's yes to each call
	// may run (a commit: outside the sandbox, and not undone by /undo):
	// no policy (auto, --yes), allow rule or "always" answers for it.
	// With nobody to ask it is refused.
	NeverAutoApproved bool
	// Timeout overrides the Registry's default time limit when non-zero.
	Timeout time.Duration
	// NotServed keeps the tool out of what the agent offers other agents
	// over MCP (agent serve), whatever its options: nobody is there to
	// approve its calls, and a program run or a page fetched for another
	// agent is a service to whoever reaches the server.
	NotServed bool
	// OnDemand tools, rarely needed, are named in the system prompt with
	// one line each; the model gets the whole definition the first time
	// it calls one (that call is answered with it, not run). It keeps the
	// first request small.
	OnDemand bool
}

// PathParams returns the names of the parameters that are project paths
// (Param.Path), in definition order.
func (d Definition) PathParams() []string {
	var names []string
	for _, p := range d.Params {
		if p.Path {
			names = append(names, p.Name)
		}
	}
	return names
}

// CommandParam returns the name of the parameter holding the command line
// the tool runs (Param.Command); "" for a tool that runs no program.
func (d Definition) CommandParam() string {
	for _, p := range d.Params {
		if p.Command {
			return p.Name
		}
	}
	return ""
}

// Subject is what a call with the raw arguments args works on, in one
// line, for a person: its command line, or its project paths; "" when
// the tool names neither.
func (d Definition) Subject(args map[string]string) string {
	words := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	if c := d.CommandParam(); c != "" && args[c] != "" {
		return words(args[c])
	}
	var paths []string
	for _, p := range d.PathParams() {
		if v := args[p]; v != "" {
			paths = append(paths, words(v))
		}
	}
	return strings.Join(paths, " ")
}

// RunsPrograms reports whether the tool runs a command line it is given.
func (d Definition) RunsPrograms() bool { return d.CommandParam() != "" }

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
	// Created and Deleted are those of Changed that the call created
	// and deleted, when the tool knows (a command's scan); a tool that
	// keeps backups leaves it to them.
	Created, Deleted []string
	// Alerts are what the person must be told about the call whatever
	// the model makes of it, one sentence each (a git repository the
	// command planted, moved out of the way). The chat's card, agent
	// run's activity lines and its summary show them; Content should say
	// the same to the model.
	Alerts []string
	// Halt, when set, ends the turn after this call, saying in one
	// sentence what the person must look at before the model goes on
	// (folders the git guard could not check after a command). The loop
	// answers the reply's later calls as not run and asks the model
	// nothing more until the person's next message; the run ends with
	// an error saying it (agent run exits 1). Alerts should hold it too,
	// and Content say it to the model, which reads it with its next turn.
	Halt string
	// Image is a picture for the model beside the text (see Image); nil
	// for none.
	Image *Image
	// Todos, when set, is the model's plan as it now stands (todo_write
	// sets it): the loop keeps it in the session and reports it to the
	// faces when it changed.
	Todos []Todo
	// Diagnostics are the language servers' word on the files the call
	// changed (Registry.After adds them; Content says the same to the
	// model); nil when none looked.
	Diagnostics *Diagnostics
}

// IsError reports whether the result is an error for the model.
func (r Result) IsError() bool { return r.Code != "" }

// Errorf returns an error Result with the given code and message.
func Errorf(code, format string, args ...any) Result {
	msg := fmt.Sprintf(format, args...)
	if strings.ContainsAny(msg, "\r\n") {
		// The protocol's messages are one line, and a stray newline from a
		// wrapped OS error must not break that; a message already on one
		// line keeps its spacing (it may quote what the model sent).
		msg = termtext.OneLine(msg)
	}
	return Result{Code: code, Message: msg}
}
