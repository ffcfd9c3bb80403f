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
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	n, err := l.w.Write(p)
	var ready []func()
	for id, f := range l.waiting {
		if isResponseNaming(p, id) {
			ready = append(ready, f)
			delete(l.waiting, id)
		}
	}
	l.mu.Unlock()
	for _, f := range ready {
		go f()
	}
	return n, err
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
func (a *agentSide) screen(in io.Reader) io.Reader {
	pr, pw := io.Pipe()
	go func() {
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 0, 64<<10), maxMessage)
		for sc.Scan() {
			line := append(sc.Bytes(), '\n')
			if !a.admit(line) {
				continue
			}
			if _, err := pw.Write(line); err != nil {
				return
			}
		}
		pw.CloseWithError(sc.Err()) // nil: the client closed its end
	}()
	return pr
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

func (a *agentSide) setBusy(id string, busy bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if busy {
		a.busy[id] = true
	} else {
		delete(a.busy, id)
	}
}
