// Package serve is the agent's HTTP front: it mounts the MCP handler at
// /mcp and the notes REST handler at /notes behind a bearer token
// (compared in constant time), refuses requests whose Host or Origin is
// not one of the bound address's own names (DNS rebinding), bounds request
// bodies (in size and in reading time) and header reads, and drains requests in flight when its context
// ends (SIGTERM). The handlers are built by the caller.
package serve

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Defaults of Options.
const (
	DefaultMaxBody           = 8 << 20
	DefaultReadHeaderTimeout = 10 * time.Second
	DefaultBodyTimeout       = 30 * time.Second
	DefaultDrain             = 8 * time.Second
	DefaultMaxConns          = 128
)

// ErrNoToken is returned by New for a server without a token that may not
// run without one.
var ErrNoToken = errors.New("no token")

// Options configure a Server.
type Options struct {
	// Addr is the host:port to listen on.
	Addr string
	// Token is the bearer token every request must carry. It may be empty
	// only with NoAuth, and only on a loopback address.
	Token  string
	NoAuth bool
	// MCP is served at /mcp, Notes at /notes and below; either may be nil.
	MCP, Notes http.Handler
	// MaxBody bounds a request body; DefaultMaxBody when zero.
	MaxBody int64
	// ReadHeaderTimeout bounds reading a request's headers.
	ReadHeaderTimeout time.Duration
	// BodyTimeout bounds reading a request's body, so that a client
	// sending it a byte at a time cannot hold a connection (slowloris).
	// It is a deadline on the body only: a response that streams for
	// long (an MCP event stream) is not cut.
	BodyTimeout time.Duration
	// Drain is how long requests in flight may take to finish after the
	// context ends.
	Drain time.Duration
	// MaxConns bounds the connections served at once (DefaultMaxConns
	// when zero); more wait in the kernel's queue for a slot, so that a
	// flood of idle connections cannot take every file descriptor.
	MaxConns int
}

// Server is the HTTP front. Build it with New, then Serve.
type Server struct {
	opts  Options
	ln    net.Listener
	hosts hostSet
	token [32]byte
}

// New checks opts and binds the address, so that a port in use is an
// error here and Addr reports the real port of ":0".
func New(opts Options) (*Server, error) {
	if opts.MaxBody <= 0 {
		opts.MaxBody = DefaultMaxBody
	}
	if opts.ReadHeaderTimeout <= 0 {
		opts.ReadHeaderTimeout = DefaultReadHeaderTimeout
	}
	if opts.Drain <= 0 {
		opts.Drain = DefaultDrain
	}
	if opts.BodyTimeout <= 0 {
		opts.BodyTimeout = DefaultBodyTimeout
	}
	if opts.MaxConns <= 0 {
		opts.MaxConns = DefaultMaxConns
	}
	host, _, err := net.SplitHostPort(opts.Addr)
	if err != nil {
		return nil, fmt.Errorf("address %q: use HOST:PORT, like 127.0.0.1:8765", opts.Addr)
	}
	switch {
	case opts.Token != "" && opts.NoAuth:
		return nil, errors.New("a token and --no-auth: choose one")
	case opts.Token == "" && !opts.NoAuth:
		return nil, fmt.Errorf("%w: set AGENT_SERVE_TOKEN (or mcp.serve_token in your config), or add --no-auth on a loopback address", ErrNoToken)
	case opts.NoAuth && !isLoopback(host):
		return nil, fmt.Errorf("--no-auth only on a loopback address (127.0.0.1, ::1, localhost), not %q", host)
	}
	ln, err := net.Listen("tcp", opts.Addr)
	if err != nil {
		return nil, err
	}
	s := &Server{opts: opts, ln: ln, token: sha256.Sum256([]byte(opts.Token))}
	s.hosts, err = ownNames(host, ln.Addr().(*net.TCPAddr).Port)
	if err != nil {
		ln.Close()
		return nil, err
	}
	return s, nil
}

// Addr is the address the server listens on.
func (s *Server) Addr() net.Addr { return s.ln.Addr() }

// Handler is the whole front: checks, then the mounted handlers.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	if s.opts.MCP != nil {
		mux.Handle("/mcp", s.opts.MCP)
	}
	if s.opts.Notes != nil {
		mux.Handle("/notes", s.opts.Notes)
		mux.Handle("/notes/", s.opts.Notes)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Everything below is judged on the headers alone, before a
		// byte of the body is read.
		if !s.hosts.allows(r.Host) {
			refuse(w, "host not allowed", http.StatusForbidden)
			return
		}
		if o := r.Header.Get("Origin"); o != "" && !s.hosts.allowsOrigin(o) {
			refuse(w, "origin not allowed", http.StatusForbidden)
			return
		}
		if !s.opts.NoAuth && !s.authorized(r) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="agent"`)
			refuse(w, "missing or wrong bearer token", http.StatusUnauthorized)
			return
		}
		if r.Body != nil && r.Body != http.NoBody {
			bodyDeadline(w, s.opts.BodyTimeout)
			r.Body = http.MaxBytesReader(w, r.Body, s.opts.MaxBody)
		}
		mux.ServeHTTP(w, r)
	})
}

// refuse answers a request the headers already condemn and closes its
// connection: net/http would otherwise read what is left of the body (up
// to 256 KiB) to keep the connection for another request, and a client
// without the token, sending that body a byte at a time, would hold the
// connection as long as it likes. The read deadline, now, ends that read
// at once should it start.
func refuse(w http.ResponseWriter, msg string, code int) {
	w.Header().Set("Connection", "close")
	_ = http.NewResponseController(w).SetReadDeadline(time.Now()) // fails only on a test recorder
	http.Error(w, msg, code)
}

// authorized compares the request's bearer token with ours in constant
// time; hashing both first hides the token's length too.
func (s *Server) authorized(r *http.Request) bool {
	scheme, tok, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	sum := sha256.Sum256([]byte(strings.TrimSpace(tok)))
	return subtle.ConstantTimeCompare(sum[:], s.token[:]) == 1
}

// Serve answers requests until ctx ends, then stops accepting and lets the
// requests in flight finish, for at most Options.Drain.
func (s *Server) Serve(ctx context.Context) error {
	hs := &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: s.opts.ReadHeaderTimeout,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		// Requests keep running while the server drains: they end with
		// their own client, or at the drain's limit.
		BaseContext: func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(limitListener(s.ln, s.opts.MaxConns)) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	dctx, cancel := context.WithTimeout(context.Background(), s.opts.Drain)
	defer cancel()
	err := hs.Shutdown(dctx)
	if errors.Is(err, context.DeadlineExceeded) {
		// Streams still open (an MCP client's event stream) are cut.
		_ = hs.Close()
		err = nil
	}
	if serr := <-errc; !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	return err
}

// bodyDeadline sets a read deadline for the request's body. It bounds the
// body only, not the response, which may stream for as long as the
// client listens (an MCP event stream): net/http lifts the connection's
// read deadline once the body has been read to its end, when it starts
// watching the connection for the client leaving
// (TestLongResponsesAreNotCut holds it to that).
func bodyDeadline(w http.ResponseWriter, d time.Duration) {
	_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(d)) // fails only on a test recorder
}

// limitListener serves at most n connections of ln at once: Accept waits
// for one of them to close before taking the next from the kernel.
func limitListener(ln net.Listener, n int) net.Listener {
	return &limited{Listener: ln, slots: make(chan struct{}, n)}
}

type limited struct {
	net.Listener
	slots chan struct{}
}

func (l *limited) Accept() (net.Conn, error) {
	l.slots <- struct{}{}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	return &slotConn{Conn: c, free: func() { <-l.slots }}, nil
}

// slotConn gives its slot back when closed, once.
type slotConn struct {
	net.Conn
	once sync.Once
	free func()
}

func (c *slotConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.free)
	return err
}
