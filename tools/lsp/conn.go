package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
)

// maxMessage bounds one message from a server: a server is a program the
// project steers, and a Content-Length of a few gigabytes must not make
// the agent allocate them.
const maxMessage = 32 << 20

// errClosed is the error of a call on a connection whose server is gone.
var errClosed = errors.New("the language server has gone")

// message is one JSON-RPC 2.0 message: a request (ID and Method), a
// notification (Method alone) or a response (ID with Result or Error).
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("%s (code %d)", e.Message, e.Code) }

// handler answers what the server sends of its own: a notification
// (publishDiagnostics) or a request (workspace/configuration). For a
// request it returns the result, or an error that is sent back.
type handler func(method string, params json.RawMessage, request bool) (any, error)

// conn speaks JSON-RPC over a server's stdin and stdout with the LSP's
// framing: a Content-Length header, a blank line, the JSON. One
// goroutine reads; calls wait for their answer by id.
type conn struct {
	w      io.Writer
	handle handler

	writeMu sync.Mutex
	mu      sync.Mutex
	nextID  int
	pending map[string]chan message
	err     error         // why the connection ended, once it has
	done    chan struct{} // closed when reading has stopped
}

// newConn starts reading r; handle is called on the reading goroutine
// for what the server sends of its own.
func newConn(r io.Reader, w io.Writer, handle handler) *conn {
	c := &conn{w: w, handle: handle, pending: map[string]chan message{}, done: make(chan struct{})}
	go c.read(bufio.NewReaderSize(r, 64<<10))
	return c
}

// call sends a request and decodes its result into out (nil to drop it).
func (c *conn) call(ctx context.Context, method string, params, out any) error {
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return c.err
	}
	c.nextID++
	id := strconv.Itoa(c.nextID)
	answer := make(chan message, 1)
	c.pending[id] = answer
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
	}()
	if err := c.send(message{ID: json.RawMessage(id), Method: method}, params); err != nil {
		return err
	}
	select {
	case m := <-answer:
		if m.Error != nil {
			return m.Error
		}
		if out == nil || len(m.Result) == 0 {
			return nil
		}
		return json.Unmarshal(m.Result, out)
	case <-c.done:
		return c.closedErr()
	case <-ctx.Done():
		// Tell the server to stop working on it; its late answer is
		// dropped.
		c.notify("$/cancelRequest", map[string]any{"id": json.RawMessage(id)})
		return ctx.Err()
	}
}

// notify sends a notification.
func (c *conn) notify(method string, params any) error {
	return c.send(message{Method: method}, params)
}

// send writes m with params encoded into it.
func (c *conn) send(m message, params any) error {
	m.JSONRPC = "2.0"
	if params != nil {
		p, err := json.Marshal(params)
		if err != nil {
			return fmt.Errorf("encode %s: %w", m.Method, err)
		}
		m.Params = p
	}
	return c.write(m)
}

func (c *conn) write(m message) error {
	body, err := json.Marshal(m)
	if err != nil {
		return err
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if _, err := fmt.Fprintf(c.w, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
		c.stop(fmt.Errorf("write to the language server: %w", err))
		return c.closedErr()
	}
	return nil
}

// read takes messages until the stream ends or breaks the framing.
func (c *conn) read(r *bufio.Reader) {
	for {
		body, err := readFrame(r)
		if err != nil {
			c.stop(err)
			return
		}
		var m message
		if err := json.Unmarshal(body, &m); err != nil {
			continue // one bad message is dropped, not the server
		}
		c.dispatch(m)
	}
}

func (c *conn) dispatch(m message) {
	switch {
	case m.Method == "" && len(m.ID) > 0:
		c.mu.Lock()
		answer := c.pending[string(m.ID)]
		c.mu.Unlock()
		if answer != nil {
			answer <- m
		}
	case m.Method != "" && len(m.ID) > 0:
		result, err := c.handle(m.Method, m.Params, true)
		reply := message{JSONRPC: "2.0", ID: m.ID}
		if err != nil {
			reply.Error = &rpcError{Code: -32601, Message: err.Error()}
		} else {
			reply.Result, _ = json.Marshal(result)
		}
		go c.write(reply) // never block the reader on a full pipe
	case m.Method != "":
		c.handle(m.Method, m.Params, false)
	}
}

// readFrame reads one message body: headers up to a blank line, then
// Content-Length bytes.
func readFrame(r *bufio.Reader) ([]byte, error) {
	length := -1
	for headers := 0; ; headers++ {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			break
		}
		if headers > 32 || len(line) > 1024 {
			return nil, errors.New("the language server sent malformed headers")
		}
		name, value, _ := strings.Cut(line, ":")
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err != nil || n < 0 {
				return nil, fmt.Errorf("the language server sent a bad Content-Length %q", value)
			}
			length = n
		}
	}
	switch {
	case length < 0:
		return nil, errors.New("the language server sent a message without Content-Length")
	case length > maxMessage:
		return nil, fmt.Errorf("the language server sent a message of %d bytes, over the limit of %d", length, maxMessage)
	}
	body := make([]byte, length)
	_, err := io.ReadFull(r, body)
	return body, err
}

// stop ends the connection with err, once: every waiting call returns.
func (c *conn) stop(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return
	}
	if err == nil || errors.Is(err, io.EOF) {
		err = errClosed
	}
	c.err = err
	close(c.done)
}

func (c *conn) closedErr() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err == nil {
		return errClosed
	}
	return c.err
}
