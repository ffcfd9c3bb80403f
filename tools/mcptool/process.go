package mcptool

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentcli/agent/internal/termtext"
)

// command is the server program's command, not yet started, and its
// Guard: in the sandbox for a Sandboxed server (Options.Sandbox), else as
// it is, in a process group of its own. This agent's own serve is never
// started.
func (cn *conn) command() (*exec.Cmd, Guard, error) {
	s := cn.spec
	prog, err := cn.program()
	if err != nil {
		return nil, nil, err
	}
	if selfServe(prog, s.Args) {
		return nil, nil, errSelfServe
	}
	env := serverEnv(cn.childEnviron(), cn.opts.Secrets, cn.opts.SecretValues, s)
	if s.Sandboxed {
		if cn.opts.Sandbox == nil {
			return nil, nil, errors.New("it runs only in the sandbox, and none is set up here")
		}
		return cn.opts.Sandbox(s, prog, s.Args, env)
	}
	cmd := exec.Command(prog, s.Args...)
	cmd.Dir = s.Dir
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd, nil, nil
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
// spawned, a runtime's helpers) is killed after it. It keeps the end of
// what the program writes on stderr, so that one that fails to start
// can say why (an interpreter the sandbox does not show).
type groupTransport struct {
	mcp.CommandTransport
	stderr *lastWords
}

func (t *groupTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	t.Command.Stderr = w
	t.stderr = &lastWords{done: make(chan struct{})}
	c, err := t.CommandTransport.Connect(ctx)
	w.Close() // the program's copy is the only writer left
	go t.stderr.read(r)
	if err != nil {
		return nil, err
	}
	return &groupConn{Connection: c, pgid: t.Command.Process.Pid}, nil
}

// said adds to err, the failure of a connection, the last line the
// program wrote on stderr, if any, once it has ended (or after a moment).
func (t *groupTransport) said(err error) error {
	if t.stderr == nil {
		return err
	}
	if line := t.stderr.line(time.Second); line != "" {
		return fmt.Errorf("%w; it said: %s", err, line)
	}
	return err
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

// lastWords keeps the end of what a program writes on stderr.
type lastWords struct {
	mu   sync.Mutex
	tail []byte
	done chan struct{} // closed when every writer is gone
}

func (w *lastWords) read(r *os.File) {
	defer close(w.done)
	defer r.Close()
	buf := make([]byte, 4096)
	for {
		n, err := r.Read(buf)
		w.mu.Lock()
		w.tail = append(w.tail, buf[:n]...)
		if len(w.tail) > 4096 {
			w.tail = append([]byte(nil), w.tail[len(w.tail)-1024:]...)
		}
		w.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// line is the last line written, as one line of at most 300 bytes for a
// message, after waiting at most wait for the writers to be gone.
func (w *lastWords) line(wait time.Duration) string {
	select {
	case <-w.done:
	case <-time.After(wait):
	}
	w.mu.Lock()
	text := strings.TrimSpace(string(w.tail))
	w.mu.Unlock()
	return termtext.Line(text[strings.LastIndexByte(text, '\n')+1:], 300)
}
