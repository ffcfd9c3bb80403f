package mcptool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentcli/agent/tools"
)

// Prefix starts the name of every imported tool: mcp__<server>__<tool>.
const Prefix = "mcp__"

// remoteTool is one tool of an MCP server, as a tools.Tool.
type remoteTool struct {
	cn     *conn
	remote string // the tool's name on its server
	def    tools.Definition
	schema *parsedSchema
}

func newRemoteTool(cn *conn, t *mcp.Tool) (*remoteTool, error) {
	server := cn.spec.Name
	name := Prefix + safeName(server) + "__" + safeName(t.Name)
	if t.Name == "" || len(t.Name) > 128 {
		return nil, fmt.Errorf("a tool with no usable name (%q)", untrustedLine(t.Name, 40))
	}
	ps, err := parseSchema(t.InputSchema)
	if err != nil {
		return nil, fmt.Errorf("%s: unusable input schema: %s", name, untrustedLine(err.Error(), 200))
	}
	desc := untrustedLine(t.Description, maxToolDesc)
	if desc == "" {
		desc = untrustedLine(t.Title, maxToolDesc)
	}
	// The catalog says where the tool comes from, so the model can weigh
	// what the description claims.
	desc = "(MCP server " + server + ") " + desc
	def := tools.Definition{
		Name:        name,
		Description: strings.TrimSpace(desc),
		Params:      ps.params,
		// Approved like a write unless the user's own config says it only
		// reads; the server's readOnlyHint is its own claim, not evidence.
		Writes: !slices.Contains(cn.spec.ReadOnly, t.Name),
	}
	return &remoteTool{cn: cn, remote: t.Name, def: def, schema: ps}, nil
}

func (t *remoteTool) Definition() tools.Definition { return t.def }

// Preview validates the call against the schema, shows every argument
// whole, as it would be sent, and names the server, so that an "always"
// answer covers all of its tools.
func (t *remoteTool) Preview(_ context.Context, in tools.Input) (tools.Preview, *tools.Result, error) {
	args, res := t.schema.arguments(t.def.Name, in)
	if res != nil {
		return tools.Preview{}, res, nil
	}
	p := tools.Preview{
		Summary:    fmt.Sprintf("call %s on MCP server %s", t.remote, t.cn.spec.Name),
		Scope:      "mcp:" + t.cn.spec.Name,
		ScopeLabel: "the tools of MCP server " + t.cn.spec.Name,
	}
	for _, prm := range t.def.Params {
		if pp, ok := t.schema.props[prm.Name]; ok {
			if v, ok := args[pp.name]; ok {
				p.Lines = append(p.Lines, prm.Name+": "+argText(v))
			}
		}
	}
	return p, nil, nil
}

// argText shows an argument exactly as it is sent, never shortened: a
// string as it is, anything else as its JSON. The screens that show it
// make control characters and long blanks visible.
func argText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// Execute validates the call, sends it, and renders the answer. A server
// that died is started again for the next call.
func (t *remoteTool) Execute(ctx context.Context, in tools.Input) (tools.Result, error) {
	args, res := t.schema.arguments(t.def.Name, in)
	if res != nil {
		return *res, nil
	}
	server := t.cn.spec.Name
	sess, err := t.cn.session(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return tools.Result{}, ctx.Err()
		}
		return tools.Errorf(tools.CodeProviderError, "MCP server %s is not available: %s", server, untrustedLine(err.Error(), 200)), nil
	}
	r, err := sess.CallTool(ctx, &mcp.CallToolParams{Name: t.remote, Arguments: args})
	if err != nil {
		if ctx.Err() != nil {
			// Timeout or interrupt: the registry words it. The server's
			// next check, or its end, tells what it planted meanwhile.
			return tools.Result{}, ctx.Err()
		}
		var werr *jsonrpc.Error
		if errors.As(err, &werr) {
			res := tools.Errorf(tools.CodeProviderError, "MCP server %s refused the call: %s", server, untrustedLine(werr.Message, 300))
			t.cn.check(&res)
			return res, nil
		}
		res := tools.Errorf(tools.CodeProviderError, "MCP server %s stopped during the call (%s); it is started again for the next call", server, untrustedLine(err.Error(), 200))
		for _, a := range t.cn.drop(sess) {
			res.Alerts = append(res.Alerts, a)
			res.Message += "; " + a
		}
		return res, nil
	}
	// What a server in the sandbox planted during the call is moved away
	// before the answer, and said with it, as after a command.
	out := render(server, t.remote, r, t.cn.opts.MaxResult)
	t.cn.check(&out)
	return out, nil
}
