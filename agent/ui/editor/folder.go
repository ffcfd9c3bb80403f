package editor

import (
	"fmt"
	"path/filepath"

	acp "github.com/coder/acp-go-sdk"

	"github.com/agentcli/agent/agent/app"
	"github.com/agentcli/agent/tools/mcptool"
)

// projectFolder is the project folder of a session: the client's cwd,
// which must be an absolute path to a folder, and neither the home
// folder nor /, where everything readable would be open to the model.
func projectFolder(cwd, home string) (string, error) {
	if !filepath.IsAbs(cwd) {
		return "", fmt.Errorf("cwd must be an absolute path, not %q", cwd)
	}
	dir, err := app.ProjectFolder(cwd)
	if err != nil {
		return "", fmt.Errorf("cwd: %w", err)
	}
	if what := app.BroadFolder(dir, home); what != "" {
		return "", fmt.Errorf("cwd %s is %s: everything readable there would be open to the model; open a project folder", dir, what)
	}
	return dir, nil
}

// mcpSpecs are the MCP servers a client names for a session, as the
// person's own: run as the user's configured servers are (no project
// trust needed: the person chose them in the editor). SSE, which the
// agent does not offer, is skipped with a line on the log.
func mcpSpecs(servers []acp.McpServer, dir string, logf func(string, ...any)) []mcptool.Spec {
	var out []mcptool.Spec
	for _, s := range servers {
		switch {
		case s.Stdio != nil:
			env := map[string]string{}
			for _, v := range s.Stdio.Env {
				env[v.Name] = v.Value
			}
			out = append(out, mcptool.Spec{Name: s.Stdio.Name, Command: s.Stdio.Command, Args: s.Stdio.Args, Env: env, Dir: dir})
		case s.Http != nil:
			headers := map[string]string{}
			for _, h := range s.Http.Headers {
				headers[h.Name] = h.Value
			}
			out = append(out, mcptool.Spec{Name: s.Http.Name, URL: s.Http.Url, Headers: headers, Dir: dir})
		case s.Sse != nil:
			logf("mcp server %s skipped: SSE is not offered; use HTTP", s.Sse.Name)
		default:
			logf("an MCP server of a transport agent does not offer was skipped")
		}
	}
	return out
}
