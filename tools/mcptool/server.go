package mcptool

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentcli/agent/internal/termtext"
	"github.com/agentcli/agent/tools"
)

// ServeOptions choose what a server offers.
type ServeOptions struct {
	// AllowWrites offers the tools that change something; without it only
	// the reading ones are served.
	AllowWrites bool
	// Exclude names more tools not to serve.
	Exclude []string
	// Version is the agent's version, told to clients.
	Version string
	// Session names the server's calls in backups and the audit log.
	Session string
	// Observe, when set, is told about every call after it ran or was
	// refused (the audit log).
	Observe func(ServedCall)
	// Guard, when set, judges each valid call of a tool that writes
	// before it runs: a non-nil result refuses the call with it, and
	// rule names the rule that refused it (the user's permissions.deny
	// rules; nobody is there to ask).
	Guard func(def tools.Definition, in tools.Input) (refused *tools.Result, rule string)
}

// ServedCall is one call a server answered, for ServeOptions.Observe.
type ServedCall struct {
	Info   tools.CallInfo
	Name   string
	Raw    map[string]string // the arguments as the protocol's strings
	Result tools.Result
	Took   time.Duration
	Rule   string // the rule that refused the call, if one did
}

// Served reports whether a server with opts offers def.
func (o ServeOptions) Served(def tools.Definition) bool {
	switch {
	case def.NotServed, slices.Contains(o.Exclude, def.Name):
		return false
	case strings.HasPrefix(def.Name, Prefix): // another server's tools are not ours to pass on
		return false
	case def.Writes && !o.AllowWrites:
		return false
	}
	return true
}

// NewServer returns an MCP server offering the tools of reg that opts
// allow, each annotated read-only or destructive. Calls go through the
// registry as the agent's own calls do: the same validation, sandbox,
// time limits and backups.
func NewServer(reg *tools.Registry, opts ServeOptions) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "agent", Version: opts.Version}, &mcp.ServerOptions{
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}},
	})
	var calls atomic.Int64
	for _, t := range reg.Tools() {
		def := t.Definition()
		if !opts.Served(def) {
			continue
		}
		srv.AddTool(toolOf(def), func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			// No change set: the file tools give each call its own, so undo
			// restores one call at a time.
			info := tools.CallInfo{SessionID: opts.Session, CallID: "mcp-" + strconv.FormatInt(calls.Add(1), 10)}
			return serveCall(tools.WithInfo(ctx, info), reg, def, req.Params.Arguments, opts, info), nil
		})
	}
	return srv
}

// serveCall runs one tools/call. Every failure the caller can fix is a
// tool error (isError), as the agent's model would see it.
func serveCall(ctx context.Context, reg *tools.Registry, def tools.Definition, rawArgs json.RawMessage, opts ServeOptions, info tools.CallInfo) *mcp.CallToolResult {
	start := time.Now()
	name := def.Name
	raw, res := stringArgs(def, rawArgs)
	rule := ""
	if res == nil {
		res, rule = guardedCall(ctx, reg, name, raw, opts.Guard)
	}
	if opts.Observe != nil {
		opts.Observe(ServedCall{Info: info, Name: name, Raw: raw, Result: *res, Took: time.Since(start), Rule: rule})
	}
	return resultOf(*res)
}

// guardedCall validates a call, lets guard refuse it when the tool
// writes, and runs it as Registry.Call does.
func guardedCall(ctx context.Context, reg *tools.Registry, name string, raw map[string]string, guard func(tools.Definition, tools.Input) (*tools.Result, string)) (*tools.Result, string) {
	t, in, bad := reg.Validate(name, raw)
	if bad != nil {
		return bad, ""
	}
	if def := t.Definition(); guard != nil && def.Writes {
		if refused, rule := guard(def, in); refused != nil {
			return refused, rule
		}
	}
	in.CallID = tools.Info(ctx).CallID
	r, err := reg.Execute(ctx, t, in)
	if err != nil {
		r = tools.Errorf(tools.CodeProviderError, "%s could not run: %v", name, err)
	}
	return &r, ""
}

// stringArgs turns JSON arguments into the protocol's strings, after
// checking each against its parameter's JSON type: a client sees the
// schema of toolOf, so {"file_path":123} is a mistake to name, never a
// path "123". A string stays as it is, a number or boolean becomes its
// JSON text (which Validate converts from), null is a parameter not
// given, and a JSON parameter keeps its JSON text. Parameters the tool
// does not define pass on, for Validate to refuse.
func stringArgs(def tools.Definition, data json.RawMessage) (map[string]string, *tools.Result) {
	var args map[string]json.RawMessage
	if len(data) > 0 && string(data) != "null" {
		if err := json.Unmarshal(data, &args); err != nil {
			res := tools.Errorf(tools.CodeSchemaInvalid, "%s: the arguments must be a JSON object", def.Name)
			return nil, &res
		}
	}
	kinds := make(map[string]tools.Kind, len(def.Params))
	for _, p := range def.Params {
		kinds[p.Name] = p.Kind
	}
	raw := make(map[string]string, len(args))
	for _, k := range slices.Sorted(maps.Keys(args)) {
		v := bytes.TrimSpace(args[k])
		if string(v) == "null" {
			continue
		}
		kind, known := kinds[k]
		got := jsonType(v)
		if known && !typeFits(kind, got) {
			res := tools.Errorf(tools.CodeSchemaInvalid, "%s: invalid params: %s must be %s, not %s (%s)",
				def.Name, k, kindText(kind), got, termtext.Clip(string(v), 40))
			return nil, &res
		}
		var s string
		if got == "a string" && json.Unmarshal(v, &s) == nil {
			raw[k] = s
		} else {
			raw[k] = string(v)
		}
	}
	return raw, nil
}

// jsonType names the JSON type of v as a message says it.
func jsonType(v []byte) string {
	if len(v) == 0 {
		return "empty"
	}
	switch v[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	}
	return "a number"
}

// typeFits reports whether a JSON value of type got may stand for a
// parameter of kind k.
func typeFits(k tools.Kind, got string) bool {
	switch k {
	case tools.String, tools.Enum:
		return got == "a string"
	case tools.Integer:
		return got == "a number"
	case tools.Boolean:
		return got == "a boolean"
	}
	return true // tools.JSON: any value
}

func kindText(k tools.Kind) string {
	switch k {
	case tools.Integer:
		return "an integer"
	case tools.Boolean:
		return "a boolean (true or false)"
	}
	return "a string"
}

func resultOf(r tools.Result) *mcp.CallToolResult {
	if r.IsError() {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: r.Code + ": " + r.Message}}}
	}
	text := r.Message
	if r.Content != "" {
		if text != "" {
			text += "\n\n"
		}
		text += r.Content
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

// toolOf describes def to MCP clients: its first paragraph on one line,
// a JSON schema of its parameters, and what it may change.
func toolOf(def tools.Definition) *mcp.Tool {
	props := make(map[string]any, len(def.Params))
	var required []string
	for _, p := range def.Params {
		s := map[string]any{}
		switch p.Kind {
		case tools.Integer:
			s["type"] = "integer"
		case tools.Boolean:
			s["type"] = "boolean"
		case tools.Enum:
			s["type"] = "string"
			s["enum"] = p.Enum
		case tools.String:
			s["type"] = "string"
		}
		if d := firstParagraph(p.Description); d != "" {
			s["description"] = d
		}
		props[p.Name] = s
		if p.Required {
			required = append(required, p.Name)
		}
	}
	schema := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		schema["required"] = required
	}
	destructive := def.Writes
	openWorld := false
	return &mcp.Tool{
		Name:        def.Name,
		Description: firstParagraph(def.Description),
		InputSchema: schema,
		Annotations: &mcp.ToolAnnotations{
			ReadOnlyHint:    !def.Writes,
			DestructiveHint: &destructive,
			OpenWorldHint:   &openWorld,
		},
	}
}

// firstParagraph is s up to its first blank line, on one line.
func firstParagraph(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, "\n\n"); i >= 0 {
		s = s[:i]
	}
	return strings.Join(strings.Fields(s), " ")
}

// MaxRequestBody bounds one MCP request over HTTP.
const MaxRequestBody = 4 << 20

// HTTPHandler serves srv over Streamable HTTP. Authentication and the
// Host and Origin checks are the HTTP front's (agent/serve).
func HTTPHandler(srv *mcp.Server) http.Handler {
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{
		SessionTimeout:      10 * time.Minute,
		MaxRequestBodyBytes: MaxRequestBody,
	})
}
