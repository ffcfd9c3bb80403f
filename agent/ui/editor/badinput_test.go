package editor

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"testing"

	"github.com/agentcli/agent/agent/app"
	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/conversation"
	"github.com/agentcli/agent/agent/llm/llmtest"
)

// rawClient talks to the agent in raw lines, as a broken or hostile
// client may.
type rawClient struct {
	t   *testing.T
	in  io.Writer
	out *bufio.Scanner
	// early are responses read while waiting for another: requests run
	// at once, and answer in any order.
	early map[int]rawResponse
}

type rawResponse struct {
	code   int
	result json.RawMessage
}

func startRaw(t *testing.T, script *llmtest.Script) *rawClient {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	aIn, cOut := io.Pipe()
	cIn, aOut := io.Pipe()
	b := &app.Builder{LocalConfig: func(string) (config.Config, error) { return config.Defaults(), nil }}
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, aIn, aOut, Options{
			New: func(ctx context.Context, o conversation.Options) (*conversation.Conversation, error) {
				o.Model = script
				return b.New(ctx, o)
			},
			Home: "/nonexistent-home",
			Log:  testLog(t),
		})
		aOut.Close()
	}()
	t.Cleanup(func() {
		// The client goes: it writes and reads no more.
		cOut.Close()
		cIn.Close()
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	sc := bufio.NewScanner(cIn)
	sc.Buffer(nil, maxMessage)
	return &rawClient{t: t, in: cOut, out: sc, early: map[int]rawResponse{}}
}

func (c *rawClient) send(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		c.t.Fatal(err)
	}
}

// response returns the response to request id, reading up to it
// (updates and other notifications are passed over): its error code, 0
// for a result, and the result.
func (c *rawClient) response(id int) (int, json.RawMessage) {
	c.t.Helper()
	if r, ok := c.early[id]; ok {
		return r.code, r.result
	}
	for c.out.Scan() {
		var m struct {
			ID     *int            `json:"id"`
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Code int `json:"code"`
			} `json:"error"`
		}
		if err := json.Unmarshal(c.out.Bytes(), &m); err != nil {
			c.t.Fatalf("the agent wrote a line that is no JSON: %q", c.out.Text())
		}
		if m.ID == nil || m.Method != "" {
			continue
		}
		r := rawResponse{result: m.Result}
		if m.Error != nil {
			r = rawResponse{code: m.Error.Code}
		}
		if *m.ID == id {
			return r.code, r.result
		}
		c.early[*m.ID] = r
	}
	c.t.Fatalf("no response to request %d: %v", id, c.out.Err())
	return 0, nil
}

func (c *rawClient) newSession(id int, cwd string) string {
	c.t.Helper()
	c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"session/new","params":{"cwd":%q,"mcpServers":[]}}`, id, cwd))
	code, res := c.response(id)
	var r struct {
		SessionID string `json:"sessionId"`
	}
	if code != 0 || json.Unmarshal(res, &r) != nil {
		c.t.Fatalf("session/new: code %d, %s", code, res)
	}
	return r.SessionID
}

// Bad input from the client gets a JSON-RPC error with the code that
// says what was wrong, and the agent goes on serving: never a crash.
func TestBadInputGetsErrors(t *testing.T) {
	c := startRaw(t, llmtest.Texts())
	dir := t.TempDir()
	c.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`)
	if code, _ := c.response(1); code != 0 {
		t.Fatalf("initialize: code %d", code)
	}
	c.send(`this is not json`)
	c.send(`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"relative/dir","mcpServers":[]}}`)
	c.send(`{"jsonrpc":"2.0","id":3,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}`)
	c.send(`{"jsonrpc":"2.0","id":4,"method":"session/prompt","params":{"sessionId":"nope","prompt":[{"type":"text","text":"hi"}]}}`)
	c.send(`{"jsonrpc":"2.0","id":5,"method":"session/prompt","params":{"sessionId":"nope","prompt":5}}`)
	c.send(`{"jsonrpc":"2.0","id":6,"method":"session/no_such_method","params":{}}`)
	c.send(`{"jsonrpc":"2.0","id":7,"method":"session/set_mode","params":{"sessionId":"nope","modeId":"plan"}}`)
	c.send(`{"jsonrpc":"2.0","id":8,"method":"authenticate","params":{"methodId":"no-such-provider"}}`)
	for _, tc := range []struct {
		id   int
		code int
		what string
	}{
		{2, -32602, "a relative cwd"},
		{3, -32602, "the root folder as cwd"},
		{4, -32602, "a prompt to an unknown session"},
		{5, -32602, "a prompt that is no list"},
		{6, -32601, "an unknown method"},
		{7, -32602, "a mode for an unknown session"},
		{8, -32602, "an unknown authentication method"},
	} {
		if code, _ := c.response(tc.id); code != tc.code {
			t.Errorf("%s: code %d, want %d", tc.what, code, tc.code)
		}
	}
	// Still serving.
	if id := c.newSession(9, dir); id == "" {
		t.Error("no session after the bad input")
	}
}

// A prompt while one runs in the session is refused; the running one
// goes on, and ends as cancelled when the client cancels it.
func TestPromptWhileOneRuns(t *testing.T) {
	c := startRaw(t, llmtest.NewScript(llmtest.Reply{Text: "thinking", Block: true}))
	c.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`)
	c.response(1)
	id := c.newSession(2, t.TempDir())
	c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":%q,"prompt":[{"type":"text","text":"one"}]}}`, id))
	c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":4,"method":"session/prompt","params":{"sessionId":%q,"prompt":[{"type":"text","text":"two"}]}}`, id))
	if code, _ := c.response(4); code != -32600 {
		t.Errorf("a second prompt: code %d, want -32600 (invalid request)", code)
	}
	c.send(fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":%q}}`, id))
	code, res := c.response(3)
	if code != 0 || string(res) != `{"stopReason":"cancelled"}` {
		t.Errorf("the first prompt: code %d, %s; want the cancelled stop reason", code, res)
	}
}
