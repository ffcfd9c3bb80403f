package editor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"

	acp "github.com/coder/acp-go-sdk"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/conversation"
)

// Options are what Serve takes from the command.
type Options struct {
	// New builds a conversation (agent/app's Builder.New).
	New func(ctx context.Context, o conversation.Options) (*conversation.Conversation, error)
	// Flags are the command line's settings for every conversation
	// (provider, model).
	Flags config.Flags
	// Home is the person's home folder: a session is never opened there
	// (nor in /), where every readable file would be open to the model.
	Home string
	// Getenv reads the environment the keys come from; os.Getenv when
	// nil.
	Getenv func(string) string
	// Version is the agent's, told to the client.
	Version string
	// Log receives the connection's diagnostics (standard error).
	Log io.Writer
}

// Serve speaks the Agent Client Protocol on in and out until the client
// closes in or ctx ends, then closes every session's conversation.
func Serve(ctx context.Context, in io.Reader, out io.Writer, o Options) error {
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	a := &agentSide{o: o, ctx: ctx, sessions: map[string]*session{}, busy: map[string]bool{}, stops: map[string]context.CancelFunc{}, cancelled: map[string]bool{}}
	a.out = &lineWriter{w: out}
	screened, start := a.screen(in)
	a.conn = acp.NewAgentSideConnection(a, a.out, screened)
	a.conn.SetLogger(slog.New(slog.NewTextHandler(o.Log, nil)))
	start()
	select {
	case <-a.conn.Done():
	case <-ctx.Done():
		screened.CloseWithError(ctx.Err()) // the connection stops reading
		<-a.conn.Done()
	}
	// The connection cancelled the prompts' contexts as it closed: the
	// turns end, and only then their conversations close.
	a.mu.Lock()
	a.closing = true
	a.mu.Unlock()
	a.turns.Wait()
	a.out.stop()
	return a.closeAll()
}

// agentSide is the agent of one connection: its sessions by id.
type agentSide struct {
	o    Options
	ctx  context.Context // the connection's: conversations live as long
	conn *acp.AgentSideConnection
	out  *lineWriter

	mu       sync.Mutex
	client   acp.ClientCapabilities
	sessions map[string]*session
	// busy are the sessions with a prompt running (see screen); stops
	// end their turns, and cancelled are those cancelled before their
	// turn began (see Cancel).
	busy      map[string]bool
	stops     map[string]context.CancelFunc
	cancelled map[string]bool
	// turns are the prompts running; once closing, none begins.
	turns   sync.WaitGroup
	closing bool
}

var (
	_ acp.Agent       = (*agentSide)(nil)
	_ acp.AgentLoader = (*agentSide)(nil)
)

func (a *agentSide) logf(format string, args ...any) {
	fmt.Fprintf(a.o.Log, "agent: "+format+"\n", args...)
}

// Initialize says what the agent does: protocol version 1, loading
// sessions, images and embedded files in prompts, MCP servers over
// stdio and HTTP, and the key each provider needs.
func (a *agentSide) Initialize(_ context.Context, p acp.InitializeRequest) (acp.InitializeResponse, error) {
	a.mu.Lock()
	a.client = p.ClientCapabilities
	a.mu.Unlock()
	return acp.InitializeResponse{
		ProtocolVersion: acp.ProtocolVersionNumber,
		AgentCapabilities: acp.AgentCapabilities{
			LoadSession:        true,
			PromptCapabilities: acp.PromptCapabilities{Image: true, EmbeddedContext: true},
			McpCapabilities:    acp.McpCapabilities{Http: true},
		},
		AgentInfo:   &acp.Implementation{Name: "agent", Title: acp.Ptr("agent"), Version: a.o.Version},
		AuthMethods: authMethods(),
	}, nil
}

func (a *agentSide) clientFS() acp.FileSystemCapabilities {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.client.Fs
}

// session returns the open session id; an unknown one is invalid params.
func (a *agentSide) session(id acp.SessionId) (*session, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	s, ok := a.sessions[string(id)]
	if !ok {
		return nil, acp.NewInvalidParams(map[string]any{"error": fmt.Sprintf("unknown session %q: create it with session/new or session/load", id)})
	}
	return s, nil
}

// NewSession opens a new conversation in the client's folder, with the
// client's MCP servers besides the configured ones.
func (a *agentSide) NewSession(_ context.Context, p acp.NewSessionRequest) (acp.NewSessionResponse, error) {
	s, err := a.open(p.Cwd, "", p.McpServers)
	if err != nil {
		return acp.NewSessionResponse{}, err
	}
	// The commands are told once the client knows the session's id.
	a.out.after(s.id, func() { s.send(s.availableCommands()) })
	return acp.NewSessionResponse{SessionId: acp.SessionId(s.id), Modes: modeState(s.conv.Policy())}, nil
}

// LoadSession opens the project's saved session p.SessionId (one agent
// sessions lists), replays it as updates, and goes on with it.
func (a *agentSide) LoadSession(_ context.Context, p acp.LoadSessionRequest) (acp.LoadSessionResponse, error) {
	if old, err := a.session(p.SessionId); err == nil {
		if !a.closeIdle(old) {
			return acp.LoadSessionResponse{}, acp.NewInvalidRequest(map[string]any{"error": "a prompt is running in this session; cancel it first"})
		}
	}
	s, err := a.open(p.Cwd, string(p.SessionId), p.McpServers)
	if err != nil {
		return acp.LoadSessionResponse{}, err
	}
	s.replay()
	s.send(s.availableCommands())
	return acp.LoadSessionResponse{Modes: modeState(s.conv.Policy())}, nil
}

// open builds the conversation of a session in the folder cwd: a new
// one, or the saved session id.
func (a *agentSide) open(cwd, id string, servers []acp.McpServer) (*session, error) {
	dir, err := projectFolder(cwd, a.o.Home)
	if err != nil {
		return nil, acp.NewInvalidParams(map[string]any{"error": err.Error()})
	}
	s := &session{a: a, dir: dir, id: id, rejected: map[string]bool{}}
	// The conversation lives as long as the connection, not the request.
	conv, err := a.o.New(a.ctx, conversation.Options{
		Dir: dir, Flags: a.o.Flags, SessionID: id,
		Editor: s.fileEditor(a.clientFS()),
		MCP:    mcpSpecs(servers, dir, a.logf),
	})
	if err != nil {
		return nil, openError(err, id)
	}
	s.conv, s.id = conv, conv.SessionID()
	conv.SetAsker(s, "the editor could not ask the user")
	a.mu.Lock()
	a.sessions[s.id] = s
	a.mu.Unlock()
	return s, nil
}

// openError is the protocol's error for a conversation that could not
// be built: no key is authentication, no such session invalid params.
func openError(err error, id string) error {
	switch {
	case errors.Is(err, config.ErrNoProvider), errors.Is(err, config.ErrMissingKey):
		return acp.NewAuthRequired(map[string]any{"error": err.Error()})
	case id != "" && errors.Is(err, agent.ErrNoSession):
		return acp.NewInvalidParams(map[string]any{"error": err.Error()})
	}
	return acp.NewInternalError(map[string]any{"error": err.Error()})
}

// Prompt runs one turn of a session (see session.prompt); the screen in
// front of the connection has already refused a second one.
func (a *agentSide) Prompt(ctx context.Context, p acp.PromptRequest) (acp.PromptResponse, error) {
	id := string(p.SessionId)
	ctx, stop := context.WithCancel(ctx)
	defer a.endPrompt(id, stop)
	s, err := a.session(p.SessionId)
	if err != nil {
		return acp.PromptResponse{}, err
	}
	if !a.beginPrompt(id, stop) {
		return acp.PromptResponse{StopReason: acp.StopReasonCancelled}, nil
	}
	return s.prompt(ctx, p.Prompt)
}

// beginPrompt records how to stop session id's turn; false when it was
// cancelled before it began.
func (a *agentSide) beginPrompt(id string, stop context.CancelFunc) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.cancelled[id] || a.closing {
		return false
	}
	a.stops[id] = stop
	a.turns.Add(1)
	return true
}

func (a *agentSide) endPrompt(id string, stop context.CancelFunc) {
	stop()
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, began := a.stops[id]; began {
		a.turns.Done()
	}
	delete(a.busy, id)
	delete(a.stops, id)
	delete(a.cancelled, id)
}

// Cancel stops the session's turn, which the loop stops on as on Esc in
// the chat. A prompt read but not yet begun (the connection runs each
// request on a goroutine of its own) ends at once when it begins.
func (a *agentSide) Cancel(_ context.Context, p acp.CancelNotification) error {
	id := string(p.SessionId)
	a.mu.Lock()
	defer a.mu.Unlock()
	if stop, ok := a.stops[id]; ok {
		stop()
	} else if a.busy[id] {
		a.cancelled[id] = true
	}
	return nil
}

// SetSessionMode sets the session's approval policy, at once, even
// while a turn runs.
func (a *agentSide) SetSessionMode(_ context.Context, p acp.SetSessionModeRequest) (acp.SetSessionModeResponse, error) {
	s, err := a.session(p.SessionId)
	if err != nil {
		return acp.SetSessionModeResponse{}, err
	}
	policy, ok := modePolicy(p.ModeId)
	if !ok {
		return acp.SetSessionModeResponse{}, acp.NewInvalidParams(map[string]any{"error": fmt.Sprintf("unknown mode %q: use ask, auto or plan", p.ModeId)})
	}
	s.conv.SetPolicy(policy)
	s.send(acp.SessionUpdate{CurrentModeUpdate: &acp.SessionCurrentModeUpdate{CurrentModeId: p.ModeId}})
	return acp.SetSessionModeResponse{}, nil
}

// CloseSession cancels the session's turn and closes its conversation.
func (a *agentSide) CloseSession(_ context.Context, p acp.CloseSessionRequest) (acp.CloseSessionResponse, error) {
	s, err := a.session(p.SessionId)
	if err != nil {
		return acp.CloseSessionResponse{}, err
	}
	if !a.closeIdle(s) {
		return acp.CloseSessionResponse{}, acp.NewInvalidRequest(map[string]any{"error": "a prompt is running in this session; cancel it first"})
	}
	return acp.CloseSessionResponse{}, nil
}

// closeIdle closes s unless a prompt runs in it, and reports whether it
// did.
func (a *agentSide) closeIdle(s *session) bool {
	a.mu.Lock()
	if a.busy[s.id] {
		a.mu.Unlock()
		return false
	}
	delete(a.sessions, s.id)
	a.mu.Unlock()
	if err := s.conv.Close(); err != nil {
		a.logf("close session %s: %v", s.id, err)
	}
	return true
}

// closeAll closes every session's conversation.
func (a *agentSide) closeAll() error {
	a.mu.Lock()
	all := a.sessions
	a.sessions = map[string]*session{}
	a.mu.Unlock()
	var errs []error
	for _, s := range all {
		errs = append(errs, s.conv.Close())
	}
	return errors.Join(errs...)
}

// Authenticate checks that the key of the method's provider is set.
func (a *agentSide) Authenticate(_ context.Context, p acp.AuthenticateRequest) (acp.AuthenticateResponse, error) {
	return acp.AuthenticateResponse{}, authenticate(p.MethodId, a.o.Getenv)
}

// The methods the agent does not offer: it advertises none of them.

func (a *agentSide) Logout(context.Context, acp.LogoutRequest) (acp.LogoutResponse, error) {
	return acp.LogoutResponse{}, acp.NewMethodNotFound(acp.AgentMethodLogout)
}

func (a *agentSide) ListSessions(context.Context, acp.ListSessionsRequest) (acp.ListSessionsResponse, error) {
	return acp.ListSessionsResponse{}, acp.NewMethodNotFound(acp.AgentMethodSessionList)
}

func (a *agentSide) ResumeSession(context.Context, acp.ResumeSessionRequest) (acp.ResumeSessionResponse, error) {
	return acp.ResumeSessionResponse{}, acp.NewMethodNotFound(acp.AgentMethodSessionResume)
}

func (a *agentSide) SetSessionConfigOption(context.Context, acp.SetSessionConfigOptionRequest) (acp.SetSessionConfigOptionResponse, error) {
	return acp.SetSessionConfigOptionResponse{}, acp.NewMethodNotFound(acp.AgentMethodSessionSetConfigOption)
}
