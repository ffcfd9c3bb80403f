package serve

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

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
	w := &lineWriter{w: out}
	return &mcp.IOTransport{
		Reader:        &lineGuard{in: in, r: bufio.NewReaderSize(in, 64<<10), out: w, max: maxLine},
		Writer:        w,
		MaxLineLength: -1, // the guard bounds lines, and answers instead of failing
	}
}

// lineWriter writes whole lines under a lock, so that the guard's error
// answers never land inside one of the server's messages (the SDK writes
// each message with one Write).
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.Write(p)
}

// Close leaves the writer open: it is standard output, which the process
// may still write its last words on.
func (w *lineWriter) Close() error { return nil }

// lineGuard passes the SDK only lines that are JSON-RPC messages and
// answers the others itself.
type lineGuard struct {
	in      io.Reader
	r       *bufio.Reader
	out     io.Writer
	max     int
	pending []byte // the rest of a good line not yet read
}

func (g *lineGuard) Read(p []byte) (int, error) {
	for len(g.pending) == 0 {
		line, err := g.nextLine()
		if len(line) > 0 {
			g.pending = line
			break
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
	if c, ok := g.in.(io.Closer); ok {
		return c.Close()
	}
	return nil
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
			if id, code, why := check(msg); code != 0 {
				if werr := g.answer(id, code, why); werr != nil {
					return nil, werr
				}
				return nil, err
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

// check reports why msg is not one JSON-RPC message, with the id to
// answer to when it has one; code 0 means it is one.
func check(msg []byte) (id any, code int, why string) {
	if !json.Valid(msg) {
		return nil, jsonrpc.CodeParseError, "parse error: the line is not JSON; send one JSON-RPC message a line"
	}
	if msg[0] == '[' {
		return nil, jsonrpc.CodeInvalidRequest, "batches are not supported; send one JSON-RPC message a line"
	}
	if _, err := jsonrpc.DecodeMessage(msg); err != nil {
		var head struct {
			ID any `json:"id"`
		}
		if json.Unmarshal(msg, &head) == nil {
			switch head.ID.(type) {
			case string, float64:
				id = head.ID
			}
		}
		return id, jsonrpc.CodeInvalidRequest, "invalid request: not a JSON-RPC 2.0 message (" + err.Error() + ")"
	}
	return nil, 0, ""
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
	_, err = g.out.Write(append(b, '\n'))
	return err
}

// sizeText is n bytes in MiB when it is a whole number of them.
func sizeText(n int) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
