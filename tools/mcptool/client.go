package mcptool

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentcli/agent/tools"
)

// Spec says how to reach one MCP server: a program spoken to over
// stdin/stdout (Command, Args, Env), or a Streamable HTTP endpoint (URL,
// Headers).
type Spec struct {
	Name string
	// Command is a program name, found through Options.LookPath, or a
	// path (relative to Dir).
	Command string
	Args    []string
	Env     map[string]string // added to a minimal base (see Options.Environ)
	Dir     string            // working folder of Command; "" is the current one
	URL     string
	Headers map[string]string
	// ReadOnly names tools (as the server calls them) that run without
	// approval. Set it only from the user's own config.
	ReadOnly []string
	// FromProject marks a server that came with the project (its
	// .mcp.json or .agent/config.toml): its Env never carries the
	// agent's secrets (Options.Secrets), whatever it asks for.
	FromProject bool
	// Sandboxed starts the program through Options.Sandbox (a project's
	// server, under bubblewrap); without that hook it does not start.
	// Network says whether it has the network there.
	Sandboxed, Network bool
}

// Options tune discovery and calls.
type Options struct {
	// Timeout bounds start-up and tools/list of each server.
	Timeout time.Duration
	// MaxResult bounds the text of one result; DefaultMaxResult when zero.
	MaxResult int
	// Version is the agent's version, told to servers.
	Version string
	// LookPath finds a Command given by name; nil means a resolver over
	// Environ's PATH that skips relative entries and the server's Dir
	// (package programs), and server programs then get that PATH
	// without those entries. A caller giving LookPath gives an Environ
	// whose PATH is as trusted (programs.Resolver.Environ).
	LookPath func(name string) (string, error)
	// Environ is the agent's environment (os.Environ when nil). A
	// server program gets only its base (PATH, HOME, USER, LANG, LC_*,
	// TERM, TMPDIR) and its own Env.
	Environ []string
	// Secrets name the variables holding the agent's own secrets: they
	// and any variable of the same value are left out of the base, and
	// out of the Env of a server FromProject. SecretValues are secrets
	// known otherwise (the serve token of the user's config), left out
	// alike.
	Secrets, SecretValues []string
	// Sandbox makes the command that runs a Sandboxed server: its program
	// (found as for any server), arguments and environment (as a server
	// outside the sandbox would get them), run in s's sandbox, and the
	// Guard that checks what the server leaves in the project (nil for
	// none). Its error is why the server does not start.
	Sandbox func(s Spec, prog string, args, env []string) (*exec.Cmd, Guard, error)
	// Alert tells the person what a Guard found outside any call: when
	// a server started, and when it stopped. Nil says nothing.
	Alert func(string)
}

// Guard checks what a server program running in the sandbox left in the
// project (tools/shell's GitWatch: the git repositories it planted),
// from its start to its end.
type Guard interface {
	// Check adds to r what the server planted so far, moved away: the
	// alerts for the person, the words for the model, r.Halt when the
	// project could not be looked through.
	Check(r *tools.Result)
	// Stopped is told once the program has ended (or did not start),
	// and returns what the person must hear, one line each.
	Stopped() []string
}

// DefaultMaxResult is the most text one imported tool call returns.
const DefaultMaxResult = 100 << 10

// Server is the outcome of discovering one server.
type Server struct {
	Name string
	// Tools are the server's tools, ready for tools.Registry.Add.
	Tools []tools.Tool
	// Skipped says, one line each, which tools were left out and why
	// (an unusable schema or name).
	Skipped []string
	// Err is why the server is unavailable; nil when it answered.
	Err error
}

// Client holds the sessions of the servers it started.
type Client struct {
	opts    Options
	updates chan Server
	wg      sync.WaitGroup
	mu      sync.Mutex
	conns   []*conn
	closed  bool
}

// Start connects to every server in specs in parallel and returns at once.
// Each server's outcome arrives on Updates as soon as it is known (within
// opts.Timeout); Updates is closed after the last one. ctx bounds the
// discovery only, not the sessions: Close ends those.
func Start(ctx context.Context, specs []Spec, opts Options) *Client {
	if opts.Timeout <= 0 {
		opts.Timeout = 10 * time.Second
	}
	if opts.MaxResult <= 0 {
		opts.MaxResult = DefaultMaxResult
	}
	c := &Client{opts: opts, updates: make(chan Server, len(specs))}
	for _, s := range specs {
		cn := &conn{spec: s, opts: opts, client: c}
		c.mu.Lock()
		c.conns = append(c.conns, cn)
		c.mu.Unlock()
		c.wg.Add(1)
		go func() {
			defer c.wg.Done()
			c.updates <- cn.discover(ctx)
		}()
	}
	go func() {
		c.wg.Wait()
		close(c.updates)
	}()
	return c
}

// Discover connects to every server in specs and waits for all of them:
// at most opts.Timeout, since they start in parallel. It is Start plus
// Wait, for callers that need the whole catalog before they begin.
func Discover(ctx context.Context, specs []Spec, opts Options) (*Client, []Server) {
	c := Start(ctx, specs, opts)
	return c, c.Wait()
}

// AddTools discovers the tools of specs (Discover: the servers start in
// parallel, each within opts.Timeout) and adds them to reg. A server that
// fails, or a tool reg refuses (a name taken), is skipped with one line
// to warn. The returned function stops the servers.
func AddTools(ctx context.Context, reg *tools.Registry, specs []Spec, opts Options, warn func(string)) func() error {
	if len(specs) == 0 {
		return func() error { return nil }
	}
	c, servers := Discover(ctx, specs, opts)
	for _, s := range servers {
		if s.Err != nil {
			warn(fmt.Sprintf("mcp server %s skipped: %v", s.Name, s.Err))
			continue
		}
		for _, t := range s.Tools {
			if err := reg.Add(t); err != nil {
				warn(fmt.Sprintf("mcp server %s: %v", s.Name, err))
			}
		}
	}
	return c.Close
}

// Updates delivers each server's outcome once, as it arrives.
func (c *Client) Updates() <-chan Server { return c.updates }

// Wait collects the outcomes not yet taken from Updates, in the order they
// arrive.
func (c *Client) Wait() []Server {
	var out []Server
	for s := range c.updates {
		out = append(out, s)
	}
	return out
}

// Close ends every session and stops the server programs.
func (c *Client) Close() error {
	c.mu.Lock()
	c.closed = true
	conns := c.conns
	c.mu.Unlock()
	errs := make([]error, len(conns))
	var wg sync.WaitGroup
	for i, cn := range conns {
		wg.Go(func() { errs[i] = cn.close() })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// conn is the session with one server. A session that died (the program
// crashed) is started again by the next call.
type conn struct {
	spec   Spec
	opts   Options
	client *Client

	mu    sync.Mutex
	sess  *mcp.ClientSession
	guard Guard // the running program's, nil when none or it has none
}

// discover connects and lists the tools, within the time limit. At the
// limit it answers at once; stopping the server that did not answer may
// take a little longer, and goes on in the background.
func (cn *conn) discover(ctx context.Context) Server {
	ctx, cancel := context.WithTimeout(ctx, cn.opts.Timeout)
	done := make(chan Server, 1)
	go func() {
		defer cancel()
		done <- cn.tryDiscover(ctx)
	}()
	select {
	case s := <-done:
		return s
	case <-ctx.Done():
		return Server{Name: cn.spec.Name, Err: fmt.Errorf("no answer within %s", cn.opts.Timeout)}
	}
}

func (cn *conn) tryDiscover(ctx context.Context) Server {
	out := Server{Name: cn.spec.Name}
	sess, err := cn.session(ctx)
	if err == nil {
		out.Tools, out.Skipped, err = cn.listTools(ctx, sess)
		cn.alert(cn.check(&tools.Result{})) // what it planted as it started
	}
	if err != nil {
		if ctx.Err() != nil {
			err = fmt.Errorf("no answer within %s", cn.opts.Timeout)
		}
		out.Err = err
		_ = cn.close()
	}
	return out
}

func (cn *conn) listTools(ctx context.Context, sess *mcp.ClientSession) ([]tools.Tool, []string, error) {
	var ts []tools.Tool
	var skipped []string
	for t, err := range sess.Tools(ctx, nil) {
		if err != nil {
			return nil, nil, fmt.Errorf("tools/list: %w", err)
		}
		rt, err := newRemoteTool(cn, t)
		if err != nil {
			skipped = append(skipped, err.Error())
			continue
		}
		ts = append(ts, rt)
		if len(ts) > maxToolsPerServer {
			return nil, nil, fmt.Errorf("more than %d tools; is it an MCP server?", maxToolsPerServer)
		}
	}
	return ts, skipped, nil
}

// terminateWait is how long a server program may take to exit after its
// stdin closes before it is sent SIGTERM: short, since the agent waits.
const terminateWait = 500 * time.Millisecond

// maxToolsPerServer keeps one server from flooding the catalog.
const maxToolsPerServer = 256

// session returns the live session, connecting first when there is none.
func (cn *conn) session(ctx context.Context) (*mcp.ClientSession, error) {
	cn.mu.Lock()
	defer cn.mu.Unlock()
	if cn.sess != nil {
		return cn.sess, nil
	}
	cn.client.mu.Lock()
	closed := cn.client.closed
	cn.client.mu.Unlock()
	if closed {
		return nil, errors.New("client closed")
	}
	t, guard, err := cn.transport()
	if err != nil {
		return nil, err
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: cn.opts.Version},
		&mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}})
	sess, err := client.Connect(ctx, t, nil)
	if err != nil {
		if gt, ok := t.(*groupTransport); ok {
			err = gt.said(err)
		}
		if guard != nil {
			cn.alert(guard.Stopped())
		}
		return nil, fmt.Errorf("connect: %w", err)
	}
	cn.sess, cn.guard = sess, guard
	return sess, nil
}

// check adds to r what the running program planted in the project so
// far (its Guard), and returns r's alerts.
func (cn *conn) check(r *tools.Result) []string {
	cn.mu.Lock()
	g := cn.guard
	cn.mu.Unlock()
	if g != nil {
		g.Check(r)
	}
	return r.Alerts
}

// alert tells the person lines a Guard returned outside a call (each
// names the server).
func (cn *conn) alert(lines []string) {
	if cn.opts.Alert == nil {
		return
	}
	for _, l := range lines {
		cn.opts.Alert(l)
	}
}

// drop forgets sess after it failed, so that the next call starts anew,
// and returns what its program left in the project, once it ended.
func (cn *conn) drop(sess *mcp.ClientSession) []string {
	cn.mu.Lock()
	var g Guard
	if cn.sess == sess {
		cn.sess, g, cn.guard = nil, cn.guard, nil
	}
	cn.mu.Unlock()
	_ = sess.Close()
	if g != nil {
		return g.Stopped()
	}
	return nil
}

func (cn *conn) close() error {
	cn.mu.Lock()
	sess, g := cn.sess, cn.guard
	cn.sess, cn.guard = nil, nil
	cn.mu.Unlock()
	if sess == nil {
		return nil
	}
	err := sess.Close()
	if g != nil {
		// Once it has ended: what it did when its stdin closed too.
		cn.alert(g.Stopped())
	}
	if err != nil && cn.spec.Command != "" {
		// A program that exits when its stdin closes reports its exit
		// status here; that is how it is meant to stop.
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			err = nil
		}
	}
	return err
}

// transport is how to reach the server, and the Guard of the program it
// starts, if any.
func (cn *conn) transport() (mcp.Transport, Guard, error) {
	s := cn.spec
	switch {
	case s.Command != "":
		cmd, guard, err := cn.command()
		if err != nil {
			return nil, nil, err
		}
		return &groupTransport{CommandTransport: mcp.CommandTransport{Command: cmd, TerminateDuration: terminateWait}}, guard, nil
	case s.URL != "":
		if !strings.HasPrefix(s.URL, "http://") && !strings.HasPrefix(s.URL, "https://") {
			return nil, nil, fmt.Errorf("url %q: use an http:// or https:// address", s.URL)
		}
		u, err := url.Parse(s.URL)
		if err != nil || u.Host == "" {
			return nil, nil, fmt.Errorf("url %q: not a web address", s.URL)
		}
		hc := &http.Client{Transport: headerTransport{headers: s.Headers, origin: originOf(u), next: http.DefaultTransport}}
		return &mcp.StreamableClientTransport{Endpoint: s.URL, HTTPClient: hc, MaxRetries: 1, DisableStandaloneSSE: true}, nil, nil
	}
	return nil, nil, errors.New("no command and no url")
}

// headerTransport adds the configured headers (an API token) to every
// request to the server's own origin, and to no other: a server that
// redirects elsewhere (another host, port or scheme) must not receive
// the token meant for it.
type headerTransport struct {
	headers map[string]string
	origin  string // scheme://host:port of the configured URL
	next    http.RoundTripper
}

// originOf is u's scheme, host and port, the port written even when it
// is the scheme's default.
func originOf(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)]
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Hostname()) + ":" + port
}

func (t headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(t.headers) > 0 && originOf(r.URL) == t.origin {
		r = r.Clone(r.Context())
		for k, v := range t.headers {
			r.Header.Set(k, v)
		}
	}
	return t.next.RoundTrip(r)
}
