package llmtest

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentcli/agent/agent/llm"
)

// Request is one request a fake server received: the raw HTTP parts, and
// the fields every protocol has, decoded into neutral form so that tests
// can assert on what was sent without knowing the wire format.
type Request struct {
	Method string
	Path   string // e.g. "/v1beta/models/gemini-2.5-flash:streamGenerateContent"
	Query  url.Values
	Header http.Header
	Body   []byte // exactly as received

	Model     string
	Stream    bool
	System    string
	Messages  []llm.Message
	Stop      []string
	MaxTokens int

	// The reasoning asked for, as the wire said it: Gemini's and
	// Anthropic's thinking budget in tokens (-1 when absent), OpenAI's
	// reasoning effort, and whether Gemini was asked to send thoughts.
	ThinkingBudget  int
	ReasoningEffort string
	IncludeThoughts bool
	// CacheBreakpoints names the blocks an Anthropic request marked with
	// cache_control: "system", "tools", or "messages[i]".
	CacheBreakpoints []string
	// NumCtx is the window an Ollama request asked for (options.num_ctx);
	// 0 when it asked for none.
	NumCtx int
	// Think is Ollama's think field as sent ("true", "\"low\""), "" when
	// absent.
	Think string

	// For servers with a window (Ollama, llama.cpp): Window is the one
	// the request was served with, Tokens its prompt as the server
	// counted it (llm.EstimateRequest, as the agent's budget counts), and
	// Lost how many of those tokens did not fit and were dropped from the
	// beginning, the system prompt first, as real servers truncate.
	Window, Tokens, Lost int
}

// Text is the system prompt and every message's text, joined: what a
// server counts as the prompt.
func (r Request) Text() string {
	var b strings.Builder
	b.WriteString(r.System)
	for _, m := range r.Messages {
		b.WriteString(m.Text)
	}
	return b.String()
}

// LastUser is the text of the last user message, "" if there is none.
// The loop sends tool responses as a user turn, so this is where a test
// finds them.
func (r Request) LastUser() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == llm.User {
			return r.Messages[i].Text
		}
	}
	return ""
}

// Server is a fake provider on 127.0.0.1 that answers each generation
// request with the next scripted Answer and records every request. It is
// closed when the test ends.
type Server struct {
	// URL is the base URL to hand to the provider's client (for OpenAI it
	// ends in /v1, as OpenAI-compatible base URLs do).
	URL string
	// Root is the server's address without any path.
	Root string

	t     testing.TB
	proto protocol
	extra map[string]http.HandlerFunc // side endpoints (Ollama's /api/ps), by path
	srv   *httptest.Server
	done  chan struct{}
	gone  chan struct{} // see Gone

	// window, when set, is the window a request is served with: a
	// prompt larger loses its beginning (see Request.Lost).
	window func(Request) int
	// admit, when set, may answer a request before the script does,
	// without using a scripted answer (a model the server does not have).
	admit func(Request) (Answer, bool)

	mu           sync.Mutex
	promptTokens func(Request) int
	intercept    func(Request) (Answer, bool)
	answers      []Answer
	next         int
	requests     []Request
}

// newServer starts a server for protocol p; setup, when given, fills in
// its hooks (window, admit, extra) before it starts, so that no request
// can see them half set.
func newServer(t testing.TB, p protocol, answers []Answer, setup ...func(*Server)) *Server {
	t.Helper()
	s := &Server{t: t, proto: p, done: make(chan struct{}), gone: make(chan struct{}, 16), answers: append([]Answer(nil), answers...)}
	for _, f := range setup {
		f(s)
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.Root = s.srv.URL
	s.URL = s.srv.URL + p.basePath()
	t.Cleanup(s.Close)
	return s
}

// Close stops the server, cutting any answer still waiting or streaming.
// It is called when the test ends; calling it again is harmless.
func (s *Server) Close() {
	s.mu.Lock()
	select {
	case <-s.done:
		s.mu.Unlock()
		return
	default:
		close(s.done)
	}
	s.mu.Unlock()
	s.srv.CloseClientConnections()
	s.srv.Close()
}

// Push appends answers to the script.
func (s *Server) Push(answers ...Answer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.answers = append(s.answers, answers...)
}

// Requests returns a copy of every request received so far, in order,
// including requests to paths the fake does not serve.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// CountPrompt makes the server report f(request) as the prompt's input
// tokens for answers without a Usage of their own, as a real server
// counts what it received.
func (s *Server) CountPrompt(f func(Request) int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.promptTokens = f
}

// Intercept makes the server answer the requests f picks with f's
// answer, outside the script: for requests a test cannot place in order,
// like a summary the loop asks for when the conversation outgrows the
// window. Intercepted requests are recorded like the others.
func (s *Server) Intercept(f func(Request) (Answer, bool)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.intercept = f
}

// Remaining is how many scripted answers have not been used yet.
func (s *Server) Remaining() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.answers) - s.next
}

// Env returns the environment that points the provider's client (and the
// agent's configuration) at this server, with a dummy key.
func (s *Server) Env() []string { return s.proto.env(s) }

// Absent makes the server answer 404 to GET requests of these paths, as
// a server without them does (llama.cpp has no /api/v0/models), instead
// of failing the test as an unexpected request.
func (s *Server) Absent(paths ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.extra == nil {
		s.extra = map[string]http.HandlerFunc{}
	}
	for _, p := range paths {
		s.extra[p] = absent
	}
}

// absent answers as a server without the endpoint does.
func absent(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusNotFound)
	io.WriteString(w, `{"error":{"code":404,"message":"File Not Found","type":"not_found_error"}}`)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	h := s.extra[r.URL.Path]
	s.mu.Unlock()
	if h != nil {
		h(w, r)
		return
	}
	body, _ := io.ReadAll(r.Body)
	req := Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(), Header: r.Header.Clone(), Body: body}
	ok, stream := s.proto.match(r)
	var decodeErr error
	if ok {
		req.Stream = stream
		decodeErr = s.proto.decode(body, &req)
	}
	var admitted Answer
	refused := false
	if ok && decodeErr == nil && s.admit != nil {
		admitted, refused = s.admit(req)
	}
	if ok && decodeErr == nil && !refused && s.window != nil {
		req.Window = s.window(req)
		req.Tokens = llm.EstimateRequest(llm.Request{System: req.System, Messages: req.Messages})
		req.Lost = max(req.Tokens-req.Window, 0)
	}
	s.mu.Lock()
	s.requests = append(s.requests, req)
	n := len(s.requests)
	var a Answer
	exhausted := s.next >= len(s.answers)
	intercepted := false
	if refused {
		a, intercepted, exhausted = admitted, true, false
	}
	if ok && decodeErr == nil && !refused && s.intercept != nil {
		a, intercepted = s.intercept(req)
		exhausted = exhausted && !intercepted
	}
	if ok && decodeErr == nil && !exhausted {
		if !intercepted {
			a = s.answers[s.next]
			s.next++
		}
		if req.Lost > 0 {
			// The model never saw the start of the conversation (its
			// instructions, the tool protocol): it answers as a model
			// without them would, with no call in the reply.
			a = Say(LostAnswer)
		}
		switch {
		case a.Usage != nil:
		case s.promptTokens != nil:
			a.Usage = &llm.Usage{InputTokens: s.promptTokens(req), OutputTokens: len(a.Chunks)}
		case s.window != nil:
			a.Usage = &llm.Usage{InputTokens: req.Tokens - req.Lost, OutputTokens: len(a.Chunks)}
		}
	}
	s.mu.Unlock()

	switch {
	case !ok:
		s.t.Errorf("llmtest: %s server: unexpected request %s %s", s.proto.name(), r.Method, r.URL.Path)
		s.writeError(w, http.StatusNotFound, "no such endpoint in the fake "+s.proto.name()+" server")
		return
	case decodeErr != nil:
		s.t.Errorf("llmtest: %s server: request %d has a body the real API would reject: %v", s.proto.name(), n, decodeErr)
		s.writeError(w, http.StatusBadRequest, decodeErr.Error())
		return
	case exhausted:
		s.t.Errorf("llmtest: %s server: request %d has no scripted answer (%d scripted)", s.proto.name(), n, len(s.answers))
		s.writeError(w, http.StatusInternalServerError, "llmtest: no scripted answer left")
		return
	}
	s.answer(w, r, req, a)
}

func (s *Server) answer(w http.ResponseWriter, r *http.Request, req Request, a Answer) {
	if !s.held(r, a.Hold) || !s.wait(r, a.Delay) {
		return
	}
	for k, vs := range a.Header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	if a.Body != "" {
		status := a.Status
		if status == 0 {
			status = http.StatusOK
		}
		ct := "application/json"
		if status == http.StatusOK && req.Stream {
			ct = "text/event-stream"
		}
		if w.Header().Get("Content-Type") == "" { // an HTML page sets its own
			w.Header().Set("Content-Type", ct)
		}
		w.WriteHeader(status)
		io.WriteString(w, a.Body)
		return
	}
	if a.isError() {
		s.writeError(w, a.Status, a.Message)
		return
	}
	if !req.Stream {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, s.proto.unary(req, a))
		return
	}
	s.stream(w, r, req, a)
}

// LostAnswer is what a fake server with a window answers, instead of the
// script, to a request that did not fit it.
const LostAnswer = "I do not know what you want me to do."

func (s *Server) stream(w http.ResponseWriter, r *http.Request, req Request, a Answer) {
	flusher, _ := w.(http.Flusher)
	ct := "text/event-stream"
	if n, ok := s.proto.(interface{ streamType(Request) string }); ok {
		ct = n.streamType(req)
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	keepAlive := ""
	if a.KeepAlive {
		c, ok := s.proto.(interface{ comment() string })
		if !ok {
			s.t.Errorf("llmtest: the %s server has no keep-alive comments", s.proto.name())
		} else {
			keepAlive = c.comment()
		}
	}
	send := func(events ...string) {
		io.WriteString(w, keepAlive)
		for _, e := range events {
			io.WriteString(w, e)
		}
		if flusher != nil {
			flusher.Flush()
		}
	}
	send(s.proto.streamStart(req, a)...)
	for i, c := range a.Chunks {
		send(s.proto.streamChunk(req, a, i, c))
		if !s.wait(r, a.ChunkDelay) {
			return
		}
	}
	switch a.Fault {
	case FaultNone:
		send(s.proto.streamEnd(req, a)...)
	case FaultCut:
	case FaultMalformed:
		send(s.proto.malformed())
	case FaultErrorEvent:
		send(s.proto.errorEvent(a.Status, a.Message))
	case FaultReset:
		reset(w)
	case FaultStall:
		// Nothing more, on a connection kept open: a hung server.
		s.wait(r, time.Hour)
	}
}

// reset takes the connection over and closes it with a TCP RST, the way a
// crashed proxy or a dropped mobile link ends a stream.
func reset(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic(http.ErrAbortHandler)
	}
	conn, buf, err := hj.Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	buf.Flush()
	if tc, ok := conn.(*net.TCPConn); ok {
		tc.SetLinger(0)
	}
	conn.Close()
}

func (s *Server) writeError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	io.WriteString(w, s.proto.errorBody(status, msg))
}

// wait sleeps d unless the client goes away or the server closes first;
// it reports whether to carry on.
// held waits for hold to be closed (nil holds nothing); false when the
// client went away or the server closed first.
func (s *Server) held(r *http.Request, hold <-chan struct{}) bool {
	if hold == nil {
		return true
	}
	select {
	case <-hold:
		return true
	case <-r.Context().Done():
	case <-s.done:
	}
	return false
}

func (s *Server) wait(r *http.Request, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
		select {
		case s.gone <- struct{}{}:
		default:
		}
	case <-s.done:
	}
	return false
}

// Gone receives once for each answer whose client went away (closed the
// connection) while the server waited in it (Delay, ChunkDelay, a
// stall), as many as a test has not received yet up to 16.
func (s *Server) Gone() <-chan struct{} { return s.gone }

// protocol is what differs between the providers' wire formats.
type protocol interface {
	name() string
	basePath() string
	env(s *Server) []string
	// match reports whether r asks for a generation, and whether it streams
	// (when the path says so; the body may say so too).
	match(r *http.Request) (ok, stream bool)
	decode(body []byte, req *Request) error
	errorBody(status int, msg string) string
	unary(req Request, a Answer) string
	streamStart(req Request, a Answer) []string
	streamChunk(req Request, a Answer, i int, text string) string
	streamEnd(req Request, a Answer) []string
	errorEvent(status int, msg string) string
	// malformed is an event whose data is cut-off JSON.
	malformed() string
}

// sse frames one server-sent event.
func sse(event, data string) string {
	if event == "" {
		return "data: " + data + "\n\n"
	}
	return fmt.Sprintf("event: %s\ndata: %s\n\n", event, data)
}

// stopHit is the stop sequence that ends the answer's text, for protocols
// that report it.
func stopHit(req Request) string {
	if len(req.Stop) > 0 {
		return req.Stop[0]
	}
	return ""
}

// statusName is the Google RPC status for an HTTP status.
func statusName(status int) string {
	switch status {
	case 400:
		return "INVALID_ARGUMENT"
	case 401:
		return "UNAUTHENTICATED"
	case 403:
		return "PERMISSION_DENIED"
	case 404:
		return "NOT_FOUND"
	case 429:
		return "RESOURCE_EXHAUSTED"
	case 503:
		return "UNAVAILABLE"
	case 504:
		return "DEADLINE_EXCEEDED"
	}
	if status >= 500 {
		return "INTERNAL"
	}
	return strings.ToUpper(strings.ReplaceAll(http.StatusText(status), " ", "_"))
}
