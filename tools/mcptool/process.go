package mcptool

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"slices"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// command is the server program's command, not yet started: in the
// sandbox for a Sandboxed server (Options.Sandbox), else as it is, in a
// process group of its own. This agent's own serve is never started.
func (cn *conn) command() (*exec.Cmd, error) {
	s := cn.spec
	prog, err := cn.program()
	if err != nil {
		return nil, err
	}
	if selfServe(prog, s.Args) {
		return nil, errSelfServe
	}
	env := serverEnv(cn.childEnviron(), cn.opts.Secrets, cn.opts.SecretValues, s)
	if s.Sandboxed {
		if cn.opts.Sandbox == nil {
			return nil, errors.New("it runs only in the sandbox, and none is set up here")
		}
		return cn.opts.Sandbox(s, prog, s.Args, env)
	}
	cmd := exec.Command(prog, s.Args...)
	cmd.Dir = s.Dir
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd, nil
}

var errSelfServe = errors.New("its command is this agent's own serve, which offers this agent's tools to other programs: the agent does not start itself as its own server")

// selfServe reports whether prog is this agent's own executable and its
// arguments ask for serve. (agent serve starts no MCP server, so even
// then it would not start itself again and again; but its tools are this
// agent's, and a second agent over the same project is no server.)
func selfServe(prog string, args []string) bool {
	if !slices.Contains(args, "serve") {
		return false
	}
	self, err := os.Executable()
	if err != nil {
		return false
	}
	a, err := os.Stat(prog)
	if err != nil {
		return false
	}
	b, err := os.Stat(self)
	return err == nil && os.SameFile(a, b)
}

// groupTransport starts the server program in a process group of its own
// (in the sandbox, bubblewrap's) and ends the whole group once the
// session is closed: the SDK ends the program itself (its stdin closed,
// then SIGTERM, then SIGKILL), and what it started in turn (a child it
// spawned, a runtime's helpers) is killed after it.
type groupTransport struct{ mcp.CommandTransport }

func (t *groupTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.CommandTransport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &groupConn{Connection: c, pgid: t.Command.Process.Pid}, nil
}

type groupConn struct {
	mcp.Connection
	pgid int
}

func (c *groupConn) Close() error {
	err := c.Connection.Close()
	syscall.Kill(-c.pgid, syscall.SIGKILL)
	return err
}
