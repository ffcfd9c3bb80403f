package main

import (
	"context"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/agentcli/agent/agent/serve"
	"github.com/agentcli/agent/tools/mcptool"
)

// serveOptions are the flags of agent serve.
type serveOptions struct {
	stdio       bool
	httpAddr    string
	noAuth      bool
	allowWrites bool
	dir         string
}

// newServeCmd is `agent serve`; runF, when set, runs instead.
func newServeCmd(d *factory, runF func(*serveOptions) error) *cobra.Command {
	o := &serveOptions{}
	cmd := &cobra.Command{
		Use:   "serve (--stdio | --http ADDR)",
		Short: "Offer the agent's tools to other agents over MCP",
		Long: `serve offers the project's tools (files, notes, audio) as an MCP server,
with the same sandbox, backups, audit log and permissions.deny rules as
the agent's own calls.
Only the reading tools are offered unless --allow-writes is given; the
shell tool never is, nor another MCP server's tools (none is started).

--stdio speaks MCP on standard input and output (for a client that starts
the agent itself). --http ADDR serves MCP over Streamable HTTP at /mcp, and
the notes REST API at /notes, behind "Authorization: Bearer TOKEN" with the
token from AGENT_SERVE_TOKEN (or mcp.serve_token in your config); --no-auth
drops the token, on a loopback address only. SIGTERM lets requests in
flight finish before the server exits.`,
		Example: `  agent serve --stdio
  AGENT_SERVE_TOKEN=$(openssl rand -hex 16) agent serve --http 127.0.0.1:8765
  agent serve --http 127.0.0.1:8765 --no-auth --allow-writes`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.stdio == (o.httpAddr != "") {
				return usageErrorf("give --stdio or --http ADDR")
			}
			if o.stdio && o.noAuth {
				return usageErrorf("--no-auth is for --http")
			}
			if runF != nil {
				return runF(o)
			}
			return d.runServe(cmd.Context(), o)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&o.stdio, "stdio", false, "speak MCP on standard input and output")
	f.StringVar(&o.httpAddr, "http", "", "serve MCP and the notes API over HTTP at `ADDR` (host:port)")
	f.BoolVar(&o.noAuth, "no-auth", false, "serve without a token (loopback addresses only)")
	f.BoolVar(&o.allowWrites, "allow-writes", false, "offer the tools that change files and notes too")
	f.StringVar(&o.dir, "dir", "", "the project folder (default: the current folder)")
	return cmd
}

func (d *factory) runServe(ctx context.Context, o *serveOptions) error {
	root, err := d.workFolder(o.dir)
	if err != nil {
		return err
	}
	cfg, err := d.localConfig(root)
	if err != nil {
		return err
	}
	sv, err := d.builder().Serve(ctx, root, cfg, o.allowWrites)
	if err != nil {
		return err
	}
	defer sv.Close()
	if o.stdio {
		return sv.MCP.Run(ctx, serve.StdioTransport(d.io.In, d.io.Out))
	}
	token := os.Getenv("AGENT_SERVE_TOKEN")
	if token == "" {
		token = cfg.MCP.ServeToken
	}
	if o.noAuth {
		token = ""
	}
	s, err := serve.New(serve.Options{
		Addr:   o.httpAddr,
		Token:  token,
		NoAuth: o.noAuth,
		MCP:    mcptool.HTTPHandler(sv.MCP),
		Notes:  sv.Notes,
	})
	if err != nil {
		return usageErrorf("%v", err)
	}
	mode := "reading tools only"
	if o.allowWrites {
		mode = "writes allowed"
	}
	where := fmt.Sprintf("MCP at http://%s/mcp", s.Addr())
	if sv.Notes != nil {
		where += fmt.Sprintf(" and the notes API at http://%s/notes", s.Addr())
	}
	fmt.Fprintf(d.io.ErrOut, "agent: serving %s (%s); Ctrl-C or SIGTERM stops\n", where, mode)
	return s.Serve(ctx)
}
