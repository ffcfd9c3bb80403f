package editor

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	acp "github.com/coder/acp-go-sdk"

	"github.com/agentcli/agent/agent/app"
	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/conversation"
	"github.com/agentcli/agent/agent/llm/llmtest"
)

// harness is a real editor face (Serve) over in-memory pipes, building
// real conversations (agent/app's Builder, the agent's own tools) over a
// scripted model in a temporary project, and the SDK's client side
// talking to it.
type harness struct {
	t      *testing.T
	dir    string
	script *llmtest.Script
	conn   *acp.ClientSideConnection
	client *testClient
	// toAgent writes raw lines to the agent, as a broken client might.
	toAgent io.Writer
	// wire is everything the agent wrote, every line of it.
	wire *lockedBuffer
	done chan error
}

// start serves a fresh connection in dir (a new temporary project when
// ""), with the client offering its files when fs is set.
func start(t *testing.T, dir string, script *llmtest.Script, fs bool) *harness {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	ctx, cancel := context.WithCancel(t.Context())
	aIn, cOut := io.Pipe()
	cIn, aOut := io.Pipe()
	h := &harness{t: t, dir: dir, script: script, toAgent: cOut, wire: &lockedBuffer{}, done: make(chan error, 1)}
	b := &app.Builder{LocalConfig: func(string) (config.Config, error) { return config.Defaults(), nil }}
	go func() {
		h.done <- Serve(ctx, aIn, io.MultiWriter(aOut, h.wire), Options{
			New: func(ctx context.Context, o conversation.Options) (*conversation.Conversation, error) {
				o.Model = script
				return b.New(ctx, o)
			},
			Home:    "/nonexistent-home",
			Version: "test",
			Log:     testLog(t),
		})
		aOut.Close()
	}()
	h.client = &testClient{buffers: map[string]string{}, answer: "allow_once", updates: make(chan acp.SessionNotification, 1024)}
	h.conn = acp.NewClientSideConnection(h.client, cOut, cIn)
	h.conn.SetLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))
	t.Cleanup(func() {
		// The client goes: it writes and reads no more.
		cOut.Close()
		cIn.Close()
		cancel()
		if err := <-h.done; err != nil {
			t.Errorf("Serve: %v", err)
		}
		h.onlyJSONRPC()
	})
	_, err := h.conn.Initialize(t.Context(), acp.InitializeRequest{
		ProtocolVersion:    acp.ProtocolVersionNumber,
		ClientCapabilities: acp.ClientCapabilities{Fs: acp.FileSystemCapabilities{ReadTextFile: fs, WriteTextFile: fs}},
	})
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	return h
}

// newSession opens a session in the harness's project.
func (h *harness) newSession() acp.SessionId {
	h.t.Helper()
	resp, err := h.conn.NewSession(h.t.Context(), acp.NewSessionRequest{Cwd: h.dir, McpServers: []acp.McpServer{}})
	if err != nil {
		h.t.Fatalf("session/new: %v", err)
	}
	return resp.SessionId
}

// prompt sends text and waits for the turn's end.
func (h *harness) prompt(id acp.SessionId, text string) (acp.PromptResponse, error) {
	return h.conn.Prompt(h.t.Context(), acp.PromptRequest{SessionId: id, Prompt: []acp.ContentBlock{acp.TextBlock(text)}})
}

// onlyJSONRPC fails the test unless every line the agent wrote is a
// JSON-RPC 2.0 message.
func (h *harness) onlyJSONRPC() {
	sc := bufio.NewScanner(bytes.NewReader(h.wire.Bytes()))
	sc.Buffer(nil, maxMessage)
	for sc.Scan() {
		var m struct {
			JSONRPC string `json:"jsonrpc"`
		}
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil || m.JSONRPC != "2.0" {
			h.t.Errorf("the agent wrote a line that is no JSON-RPC message: %q", sc.Text())
		}
	}
}

func (h *harness) writeFile(name, content string) {
	h.t.Helper()
	p := filepath.Join(h.dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		h.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		h.t.Fatal(err)
	}
}

// testClient is the editor: its buffers (unsaved text by absolute
// path), the answer it gives to permission requests, and the updates
// it received.
type testClient struct {
	mu      sync.Mutex
	buffers map[string]string
	answer  acp.PermissionOptionId // "" answers "cancelled"
	asked   []acp.RequestPermissionRequest
	writes  []acp.WriteTextFileRequest
	updates chan acp.SessionNotification
	seen    []acp.SessionNotification
}

func (c *testClient) ReadTextFile(_ context.Context, p acp.ReadTextFileRequest) (acp.ReadTextFileResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if text, ok := c.buffers[p.Path]; ok {
		return acp.ReadTextFileResponse{Content: text}, nil
	}
	b, err := os.ReadFile(p.Path)
	if err != nil {
		return acp.ReadTextFileResponse{}, acp.NewInternalError(map[string]any{"error": err.Error()})
	}
	return acp.ReadTextFileResponse{Content: string(b)}, nil
}

func (c *testClient) WriteTextFile(_ context.Context, p acp.WriteTextFileRequest) (acp.WriteTextFileResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.writes = append(c.writes, p)
	c.buffers[p.Path] = p.Content
	return acp.WriteTextFileResponse{}, nil
}

func (c *testClient) RequestPermission(_ context.Context, p acp.RequestPermissionRequest) (acp.RequestPermissionResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.asked = append(c.asked, p)
	if c.answer == "" {
		return acp.RequestPermissionResponse{Outcome: acp.RequestPermissionOutcome{Cancelled: &acp.RequestPermissionOutcomeCancelled{}}}, nil
	}
	return acp.RequestPermissionResponse{Outcome: acp.RequestPermissionOutcome{Selected: &acp.RequestPermissionOutcomeSelected{OptionId: c.answer}}}, nil
}

func (c *testClient) SessionUpdate(_ context.Context, n acp.SessionNotification) error {
	c.mu.Lock()
	c.seen = append(c.seen, n)
	c.mu.Unlock()
	c.updates <- n
	return nil
}

var errNoTerminal = errors.New("no terminal in this client")

func (c *testClient) CreateTerminal(context.Context, acp.CreateTerminalRequest) (acp.CreateTerminalResponse, error) {
	return acp.CreateTerminalResponse{}, errNoTerminal
}

func (c *testClient) KillTerminal(context.Context, acp.KillTerminalRequest) (acp.KillTerminalResponse, error) {
	return acp.KillTerminalResponse{}, errNoTerminal
}

func (c *testClient) TerminalOutput(context.Context, acp.TerminalOutputRequest) (acp.TerminalOutputResponse, error) {
	return acp.TerminalOutputResponse{}, errNoTerminal
}

func (c *testClient) ReleaseTerminal(context.Context, acp.ReleaseTerminalRequest) (acp.ReleaseTerminalResponse, error) {
	return acp.ReleaseTerminalResponse{}, errNoTerminal
}

func (c *testClient) WaitForTerminalExit(context.Context, acp.WaitForTerminalExitRequest) (acp.WaitForTerminalExitResponse, error) {
	return acp.WaitForTerminalExitResponse{}, errNoTerminal
}

// received are the updates so far, as JSON lines (one per update), for
// matching.
func (c *testClient) received() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var sb strings.Builder
	for _, n := range c.seen {
		b, _ := json.Marshal(n.Update)
		sb.Write(b)
		sb.WriteByte('\n')
	}
	return sb.String()
}

// waitFor waits for an update that ok accepts, in the order they come.
func (c *testClient) waitFor(t *testing.T, ok func(acp.SessionUpdate) bool) {
	t.Helper()
	for {
		select {
		case n := <-c.updates:
			if ok(n.Update) {
				return
			}
		case <-t.Context().Done():
			t.Fatal("the update never came")
		}
	}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) Bytes() []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	return bytes.Clone(l.b.Bytes())
}

// testLog is the agent's standard error, shown in the test's log when
// the test ends (the connection may still log as it closes).
func testLog(t *testing.T) io.Writer {
	var b lockedBuffer
	t.Cleanup(func() {
		if log := strings.TrimSpace(string(b.Bytes())); log != "" {
			t.Log("the agent's log:\n" + log)
		}
	})
	return &b
}
