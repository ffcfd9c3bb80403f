package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/serve"
	"github.com/agentcli/agent/tools/mcptool"
	"github.com/agentcli/agent/tools/notes"
)

// serveOptions are the flags of agent serve.
type serveOptions struct {
	stdio       bool
	httpAddr    string
	noAuth      bool
	allowWrites bool
	dir         string
}

func newServeCmd(d *factory) *cobra.Command {
	o := &serveOptions{}
	cmd := &cobra.Command{
		Use:   "serve (--stdio | --http ADDR)",
		Short: "Offer the agent's tools to other agents over MCP",
		Long: `serve offers the project's tools (files, notes, audio) as an MCP server,
with the same sandbox, backups, audit log and permissions.deny rules as
the agent's own calls.
Only the reading tools are offered unless --allow-writes is given; the
shell tool never is.

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
	if err := ensureStateDir(root); err != nil { // the audit log, notes, backups
		return err
	}
	sv, err := d.mcpServer(ctx, root, cfg, o.allowWrites)
	if err != nil {
		return err
	}
	defer sv.close()
	if o.stdio {
		return sv.mcp.Run(ctx, serve.StdioTransport(d.io.In, d.io.Out))
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
		MCP:    mcptool.HTTPHandler(sv.mcp),
		Notes:  sv.notes,
	})
	if err != nil {
		return usageErrorf("%v", err)
	}
	mode := "reading tools only"
	if o.allowWrites {
		mode = "writes allowed"
	}
	where := fmt.Sprintf("MCP at http://%s/mcp", s.Addr())
	if sv.notes != nil {
		where += fmt.Sprintf(" and the notes API at http://%s/notes", s.Addr())
	}
	fmt.Fprintf(d.io.ErrOut, "agent: serving %s (%s); Ctrl-C or SIGTERM stops\n", where, mode)
	return s.Serve(ctx)
}

// served is what agent serve offers for one project.
type served struct {
	mcp *mcp.Server
	// notes is the notes REST API, behind the same guards as the MCP
	// calls; nil when the note tools are off.
	notes http.Handler
	close func() error
}

// mcpServer builds the MCP server of the project at root and its notes
// REST API: the project's tools as a run has them, the user's
// permissions.deny rules applied to every write, every call and every
// change through the REST API in the audit log.
func (d *factory) mcpServer(ctx context.Context, root string, cfg config.Config, allowWrites bool) (*served, error) {
	// Never a command tool: nobody is there to approve one.
	set, err := d.buildCatalog(ctx, root, cfg, true)
	if err != nil {
		return nil, err
	}
	reg := set.reg
	audit := agent.NewAudit(root)
	fr := d.fileRoot(root, cfg)
	closeAll := func() error { return errors.Join(audit.Close(), fr.Close(), set.Close()) }
	if err := audit.Check(); err != nil {
		closeAll()
		return nil, err
	}
	perms, err := permissions(cfg, fr)
	if err != nil {
		closeAll()
		return nil, err
	}
	session := "serve-" + time.Now().UTC().Format("20060102-150405")
	sv := &served{close: closeAll}
	sv.mcp = mcptool.NewServer(reg, mcptool.ServeOptions{
		AllowWrites: allowWrites,
		Version:     version,
		Session:     session,
		Observe:     auditObserver(audit),
		Guard:       servedGuard(perms),
	})
	if set.notes != nil {
		h := notes.NewHandler(set.notes, notes.HandlerOptions{ReadOnly: !allowWrites})
		sv.notes = guardedNotes(h, restGuard{perms: perms, reg: reg, audit: audit, session: session})
	}
	return sv, nil
}

// auditObserver records each served call in the project's audit log, as
// the agent's own calls are.
func auditObserver(a *agent.Audit) func(mcptool.ServedCall) {
	return func(c mcptool.ServedCall) {
		outcome := agent.OutcomeOK
		switch {
		case c.Rule != "":
			outcome = agent.OutcomeDenied
		case c.Result.IsError():
			outcome = agent.OutcomeError
		}
		_ = a.Record(agent.AuditEntry{
			Time: time.Now(), Session: c.Info.SessionID, CallID: c.Info.CallID, Tool: c.Name, Params: c.Raw,
			Outcome: outcome, Code: c.Result.Code, DurationMS: float64(c.Took.Microseconds()) / 1000, Rule: c.Rule,
		})
	}
}
