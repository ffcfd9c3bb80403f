package editor

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	acp "github.com/coder/acp-go-sdk"
)

// lineWriter is the connection's output: one message a line, whole
// (the connection writes each message in one Write, and so does the
// screen), and after the response that names a new session, what waits
// for the client to know it.
type lineWriter struct {
	mu      sync.Mutex
	w       io.Writer
	waiting map[string]func() // by session id
	running sync.WaitGroup    // of what waited and now runs
	closed  bool              // nothing starts any more (stop)
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n, err := l.w.Write(p)
	for id, f := range l.waiting {
		if isResponseNaming(p, id) && !l.closed {
			l.running.Go(f)
			delete(l.waiting, id)
		}
	}
	return n, err
}

// stop waits for what started after a response, and starts nothing
// more.
func (l *lineWriter) stop() {
	l.mu.Lock()
	l.closed = true
	l.mu.Unlock()
	l.running.Wait()
}

// after runs f once the response that names session id is written: an
// update sent before it would name a session the client does not know.
func (l *lineWriter) after(id string, f func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.waiting == nil {
		l.waiting = map[string]func(){}
	}
	l.waiting[id] = f
}

func isResponseNaming(line []byte, id string) bool {
	return bytes.Contains(line, []byte(`"result":`)) && bytes.Contains(line, []byte(`"sessionId":"`+id+`"`))
}

// screen is what the connection reads of in: every line, except a
// session/prompt for a session whose prompt still runs, which is
// answered here with an error. (The connection itself would cancel the
// running prompt for the new one; a second prompt is the client's
// mistake, and must not cost the person the turn they are waiting for.)
//
// Nothing is read before start is called: the connection must be set
// before its first request is handled.
func (a *agentSide) screen(in io.Reader) (screened *io.PipeReader, start func()) {
	pr, pw := io.Pipe()
	return pr, func() {
		go a.pass(in, pw)
	}
}

// pass copies the lines of in that admit lets through to pw.
func (a *agentSide) pass(in io.Reader, pw *io.PipeWriter) {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64<<10), maxMessage)
	for sc.Scan() {
		// A copy: appending to the scanner's slice would write over the
		// next line it has already read.
		line := append(bytes.Clone(sc.Bytes()), '\n')
		if !a.admit(line) {
			continue
		}
		if _, err := pw.Write(line); err != nil {
			return
		}
	}
	pw.CloseWithError(sc.Err()) // nil: the client closed its end
}

// maxMessage is the longest message read, the connection's own bound:
// a longer line ends the connection.
const maxMessage = 10 << 20

// promptLine is what the screen reads of a message.
type promptLine struct {
	ID     *json.RawMessage `json:"id"`
	Method string           `json:"method"`
	Params json.RawMessage  `json:"params"`
}

// admit reports whether line goes on to the connection. A prompt that
// will run marks its session busy before the next line is read, so a
// second one right behind it is refused, whatever the goroutines'
// order; Prompt clears the mark when the turn ends.
func (a *agentSide) admit(line []byte) bool {
	if !bytes.Contains(line, []byte(acp.AgentMethodSessionPrompt)) {
		return true
	}
	var m promptLine
	if json.Unmarshal(line, &m) != nil || m.Method != acp.AgentMethodSessionPrompt || m.ID == nil {
		return true
	}
	var p acp.PromptRequest
	if json.Unmarshal(m.Params, &p) != nil || p.Validate() != nil {
		return true // the connection answers invalid params
	}
	id := string(p.SessionId)
	a.mu.Lock()
	busy := a.busy[id]
	if !busy {
		a.busy[id] = true
	}
	a.mu.Unlock()
	if !busy {
		return true
	}
	a.refuse(*m.ID, fmt.Sprintf("a prompt is already running in session %s: wait for its answer or send session/cancel", id))
	return false
}

// refuse answers request id with an invalid-request error.
func (a *agentSide) refuse(id json.RawMessage, why string) {
	b, err := json.Marshal(struct {
		JSONRPC string            `json:"jsonrpc"`
		ID      json.RawMessage   `json:"id"`
		Error   *acp.RequestError `json:"error"`
	}{"2.0", id, acp.NewInvalidRequest(map[string]any{"error": why})})
	if err == nil {
		a.out.Write(append(b, '\n'))
	}
}
