package serve

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxStdioLine bounds one message of the stdio transport.
const MaxStdioLine = DefaultMaxBody

// StdioTransport is the MCP transport of `agent serve --stdio`: one
// JSON-RPC message a line on in and out, like the SDK's stdio transport,
// except that a line that is not a JSON-RPC message does not end the
// session. The SDK's reader gives up on the first bad line, which lets
// one stray line from a client (a log line, a typo in a terminal) kill
// the server; JSON-RPC says to answer it and carry on. So a line that is
// not JSON is answered with a parse error (-32700), and one that is JSON
// but no message (a batch, a wrong version, a line over MaxStdioLine)
// with an invalid request error (-32600), and the next line is read.
func StdioTransport(in io.Reader, out io.Writer) mcp.Transport {
	return stdioTransport(in, out, MaxStdioLine)
}

func stdioTransport(in io.Reader, out io.Writer, maxLine int) mcp.Transport {
	w := &lineWriter{w: out, pending: map[string]bool{}, answered: make(chan struct{}, 1)}
	return &mcp.IOTransport{
		Reader:        &lineGuard{in: in, r: bufio.NewReaderSize(in, 64<<10), out: w, max: maxLine, closed: make(chan struct{})},
		Writer:        w,
		MaxLineLength: -1, // the guard bounds lines, and answers instead of failing
	}
}

// lineWriter writes whole lines under a lock, so that the guard's error
// answers never land inside one of the server's messages (the SDK writes
// each message with one Write). It keeps the ids of the requests passed
// to the server that are not answered yet, so that the end of the input
// can wait for those answers. A set, not a count: a client that sends an
// id twice gets one answer, and must not keep the server waiting.
type lineWriter struct {
	mu       sync.Mutex
	w        io.Writer
	pending  map[string]bool
	answered chan struct{} // signalled after each response
}

// Write writes a message of the server.
func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := w.w.Write(p)
	if id, ok := responseID(p); ok && w.pending[id] {
		delete(w.pending, id)
		select {
		case w.answered <- struct{}{}:
		default:
		}
	}
	return n, err
}

// writeOwn writes one of the guard's own answers: not one the server
// owed.
func (w *lineWriter) writeOwn(p []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	_, err := w.w.Write(p)
	return err
}

// owed is the number of requests not answered yet.
func (w *lineWriter) owed() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.pending)
}

func (w *lineWriter) ask(id jsonrpc.ID) {
	w.mu.Lock()
	w.pending[idKey(id)] = true
	w.mu.Unlock()
}

// idKey is an id as the SDK compares them (5 and 5.0 are one id).
func idKey(id jsonrpc.ID) string { return fmt.Sprintf("%T:%v", id.Raw(), id.Raw()) }

// responseID is the id of a message the server writes when it is a
// response, reading only its first keys: a response has an id and then a
// result or an error; a request or notification has a method.
func responseID(msg []byte) (string, bool) {
	dec := json.NewDecoder(bytes.NewReader(msg))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return "", false
	}
	var id any
	hasID := false
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return "", false
		}
		switch t {
		case "result", "error":
			if !hasID {
				return "", false
			}
			jid, err := jsonrpc.MakeID(id)
			return idKey(jid), err == nil
		case "method":
			return "", false
		case "id":
			hasID = true
			if dec.Decode(&id) != nil {
				return "", false
			}
			continue
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return "", false
		}
	}
	return "", false
}

// drainLimit bounds how long the end of the input waits for the answers
// still owed: as long as the slowest tool may run (audio_generation).
const drainLimit = 10 * time.Minute

// Close leaves the writer open: it is standard output, which the process
// may still write its last words on.
func (w *lineWriter) Close() error { return nil }

// lineGuard passes the SDK only lines that are JSON-RPC messages and
// answers the others itself.
type lineGuard struct {
	in      io.Reader
	r       *bufio.Reader
	out     *lineWriter
	max     int
	pending []byte // the rest of a good line not yet read
	closed  chan struct{}
	once    sync.Once
}

func (g *lineGuard) Read(p []byte) (int, error) {
	for len(g.pending) == 0 {
		line, err := g.nextLine()
		if len(line) > 0 {
			g.pending = line
			break
		}
		if errors.Is(err, io.EOF) {
			// A client that writes its requests and closes its end
			// (echo ... | agent serve --stdio) still gets every answer:
			// the SDK ends the session at EOF, dropping calls in flight.
			g.drain()
		}
		if err != nil {
			return 0, err
		}
	}
	n := copy(p, g.pending)
	g.pending = g.pending[n:]
	return n, nil
}

// Close closes in when it can be closed, as the SDK's stdio transport
// closes standard input.
func (g *lineGuard) Close() error {
	g.once.Do(func() { close(g.closed) })
	if c, ok := g.in.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// drain waits until every request passed on is answered, the transport
// is closed, or drainLimit has passed.
func (g *lineGuard) drain() {
	timeout := time.NewTimer(drainLimit)
	defer timeout.Stop()
	for g.out.owed() > 0 {
		select {
		case <-g.out.answered:
		case <-g.closed:
			return
		case <-timeout.C:
			return
		}
	}
}

// nextLine reads one line and returns it, with its newline, when it is a
// message; otherwise it answers the line and returns nothing.
func (g *lineGuard) nextLine() ([]byte, error) {
	var line []byte
	long := false
	for {
		chunk, err := g.r.ReadSlice('\n')
		if !long {
			if len(line)+len(chunk) > g.max {
				long, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if long {
			if werr := g.answer(nil, jsonrpc.CodeInvalidRequest, "message longer than "+sizeText(g.max)+"; send smaller requests"); werr != nil {
				return nil, werr
			}
			return nil, err
		}
		if err != nil && len(bytes.TrimSpace(line)) == 0 {
			return nil, err
		}
		if msg := bytes.TrimSpace(line); len(msg) > 0 {
			decoded, id, code, why := check(msg)
			if code != 0 {
				if werr := g.answer(id, code, why); werr != nil {
					return nil, werr
				}
				return nil, err
			}
			if req, ok := decoded.(*jsonrpc.Request); ok && req.ID.IsValid() {
				g.out.ask(req.ID)
			}
			// A last line without its newline is still a message.
			return append(msg, '\n'), nil
		}
		if err != nil {
			return nil, err
		}
		return nil, nil // a blank line
	}
}

// check decodes msg, or reports why it is not one JSON-RPC message, with
// the id to answer to when it has one; code 0 means it is one.
func check(msg []byte) (decoded jsonrpc.Message, id any, code int, why string) {
	if !json.Valid(msg) {
		return nil, nil, jsonrpc.CodeParseError, "parse error: the line is not JSON; send one JSON-RPC message a line"
	}
	if msg[0] == '[' {
		return nil, nil, jsonrpc.CodeInvalidRequest, "batches are not supported; send one JSON-RPC message a line"
	}
	decoded, err := jsonrpc.DecodeMessage(msg)
	if err != nil {
		var head struct {
			ID any `json:"id"`
		}
		if json.Unmarshal(msg, &head) == nil {
			switch head.ID.(type) {
			case string, float64:
				id = head.ID
			}
		}
		return nil, id, jsonrpc.CodeInvalidRequest, "invalid request: not a JSON-RPC 2.0 message (" + err.Error() + ")"
	}
	return decoded, nil, 0, ""
}

// answer writes a JSON-RPC error response; id nil is JSON null, as the
// specification asks when the request's id is unknown.
func (g *lineGuard) answer(id any, code int, message string) error {
	type wireError struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	b, err := json.Marshal(struct {
		JSONRPC string    `json:"jsonrpc"`
		ID      any       `json:"id"`
		Error   wireError `json:"error"`
	}{"2.0", id, wireError{code, message}})
	if err != nil {
		return err
	}
	return g.out.writeOwn(append(b, '\n'))
}

// sizeText is n bytes in MiB when it is a whole number of them.
func sizeText(n int) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
