package mcptool

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode"

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
	if cn.selfServe(prog) {
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

// selfServe reports whether the server would be this agent's own serve:
// its arguments ask for serve (the word, alone or in a shell's command
// line), and its program, or a program an argument names (sh -c "…
// agent serve", env agent serve), is this agent's executable: the same
// file (through links too) or a copy of it (the same size, then the
// same content). (agent serve starts no MCP server, so even then it
// would not start itself again and again; but its tools are this
// agent's, and a second agent over the same project is no server.) A
// program that starts it otherwise (an interpreter's exec) is not seen:
// a project's server runs in the sandbox whatever it starts.
func (cn *conn) selfServe(prog string) bool {
	args := cn.spec.Args
	if !slices.ContainsFunc(args, func(a string) bool { return slices.Contains(words(a), "serve") }) {
		return false
	}
	self, err := os.Executable()
	if err != nil {
		return false
	}
	if isSelf(prog, self) {
		return true
	}
	for _, a := range args {
		for _, w := range words(a) {
			if w == "serve" || strings.HasPrefix(w, "-") {
				continue
			}
			if p := cn.named(w); p != "" && isSelf(p, self) {
				return true
			}
		}
	}
	return false
}

// words are the words of a command line, cut at blanks and at the
// characters of a shell that end one.
func words(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune(";&|()`'\"<>=", r)
	})
}

// named is the program the word w names: a path (relative to the
// server's folder), or a name looked up as the server's own program
// is; "" when it names none.
func (cn *conn) named(w string) string {
	if strings.ContainsRune(w, '/') {
		if !filepath.IsAbs(w) && cn.spec.Dir != "" {
			w = filepath.Join(cn.spec.Dir, w)
		}
		return w
	}
	look := cn.opts.LookPath
	if look == nil {
		look = cn.resolver().Find
	}
	p, err := look(w)
	if err != nil {
		return ""
	}
	return p
}

// isSelf reports whether the file p is the executable self, or a copy
// of it.
func isSelf(p, self string) bool {
	a, err := os.Stat(p)
	if err != nil || !a.Mode().IsRegular() {
		return false
	}
	b, err := os.Stat(self)
	if err != nil {
		return false
	}
	if os.SameFile(a, b) {
		return true
	}
	if a.Size() != b.Size() {
		return false
	}
	h, err := fileHash(p)
	return err == nil && h == selfHash(self)
}

// selfHash is the SHA-256 of this agent's executable self, read once.
func selfHash(self string) string {
	selfSum.once.Do(func() { selfSum.sum, _ = fileHash(self) })
	return selfSum.sum
}

var selfSum struct {
	once sync.Once
	sum  string
}

func fileHash(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
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
	for _, f := range t.Command.ExtraFiles {
		f.Close() // the program has its own (the sandbox's environment)
	}
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
