package tui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/llm/llmtest"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/fsedit"
)

// testBackend is the real loop over real file tools in a temporary
// project, with a scripted model: the chat is driven exactly as in
// production, less the terminal.
type testBackend struct {
	root   string
	script *llmtest.Script
	a      *agent.Agent
	ask    Asker

	mu       sync.Mutex
	policy   agent.Policy
	commands []string // "name args" of each Command call
	attached []string
}

func newTestBackend(t *testing.T, replies ...llmtest.Reply) *testBackend {
	t.Helper()
	root := t.TempDir()
	files := fsedit.NewSession(fsedit.NewRoot(root, fsedit.Options{}))
	s := llmtest.NewScript(replies...)
	s.ModelName = "script/test-model"
	b := &testBackend{root: root, script: s, policy: agent.PolicyAsk}
	b.a = &agent.Agent{Model: s, Tools: tools.NewRegistry(files.Tools()...), Session: agent.NewSession(root), System: "test"}
	t.Cleanup(func() { b.a.Session.Close() })
	return b
}

func (b *testBackend) Run(ctx context.Context, prompt string, emit func(agent.Event)) (*agent.Outcome, error) {
	b.mu.Lock()
	pol := b.policy
	b.mu.Unlock()
	b.a.Approval = agent.NewApproval(pol)
	b.a.Approval.Ask = b.ask
	return b.a.Run(ctx, prompt, emit)
}

func (b *testBackend) Info() Info {
	return Info{Provider: "script", Model: "test-model", Folder: "~/proj", Session: b.a.Session.ID, Policy: b.policy}
}

func (b *testBackend) SetPolicy(p agent.Policy) {
	b.mu.Lock()
	b.policy = p
	b.mu.Unlock()
}

func (b *testBackend) Files(context.Context) ([]string, error) {
	ents, err := os.ReadDir(b.root)
	var out []string
	for _, e := range ents {
		if !e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out, err
}

func (b *testBackend) Attach(ctx context.Context, path string) (string, error) {
	res, err := b.a.Tools.Call(ctx, "read_file", map[string]string{"file_path": path})
	if err != nil {
		return "", err
	}
	if res.IsError() {
		return "", fmt.Errorf("%s", res.Message)
	}
	b.mu.Lock()
	b.attached = append(b.attached, path)
	b.mu.Unlock()
	return "<file path=\"" + path + "\">\n" + res.Content + "</file>", nil
}

func (b *testBackend) Command(_ context.Context, name, args string) (Reply, error) {
	b.mu.Lock()
	b.commands = append(b.commands, strings.TrimSpace(name+" "+args))
	b.mu.Unlock()
	switch name {
	case CmdRewind, CmdResume:
		if args == "" {
			return Reply{Choices: []Choice{{Label: "turn 1: hello", Value: "1"}, {Label: "turn 2: more", Value: "2"}}}, nil
		}
		r := Reply{Text: "went back to " + args, Cleared: true}
		if name == CmdRewind {
			r.Input = "the message of turn " + args
		}
		return r, nil
	case CmdCompact:
		return Reply{}, ErrUnsupported
	}
	return Reply{Text: "did **" + name + "** " + args}, nil
}

func (b *testBackend) write(t *testing.T, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(b.root, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (b *testBackend) read(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(b.root, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// harness drives a Model the way Bubble Tea does: commands run in
// goroutines, their messages come back in to Update one at a time.
type harness struct {
	t    *testing.T
	m    *Model
	b    *testBackend
	msgs chan tea.Msg
	quit bool
	wg   sync.WaitGroup
}

func newHarness(t *testing.T, b *testBackend, o Options) *harness {
	t.Helper()
	o.Backend = b
	if o.Root == "" {
		o.Root = b.root
	}
	o.Width = 80
	m := New(context.Background(), o)
	b.ask = m.Asker()
	h := &harness{t: t, m: m, b: b, msgs: make(chan tea.Msg, 1024)}
	t.Cleanup(func() {
		m.Close()
		// The commands still running (a history write, the loop
		// winding down) end before the project folder is removed.
		done := make(chan struct{})
		go func() { h.wg.Wait(); close(done) }()
		for {
			select {
			case <-h.msgs:
			case <-done:
				return
			}
		}
	})
	h.exec(m.Init())
	h.deliver(tea.WindowSizeMsg{Width: 80, Height: 30})
	return h
}

// exec runs cmd in the background and feeds back its messages, keeping the
// order of a sequence.
func (h *harness) exec(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		h.feed(cmd())
	}()
}

func (h *harness) feed(msg tea.Msg) {
	switch msg := msg.(type) {
	case nil:
		return
	case tea.BatchMsg:
		for _, c := range msg {
			h.exec(c)
		}
		return
	case tea.QuitMsg:
		h.msgs <- msg
		return
	}
	if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice && v.Type().Elem() == reflect.TypeOf(tea.Cmd(nil)) {
		// tea.Sequence: in order, in this goroutine.
		for i := 0; i < v.Len(); i++ {
			if c := v.Index(i).Interface().(tea.Cmd); c != nil {
				h.feed(c())
			}
		}
		return
	}
	h.msgs <- msg
}

// deliver sends msg to Update now.
func (h *harness) deliver(msg tea.Msg) {
	if _, ok := msg.(tea.QuitMsg); ok {
		h.quit = true
		return
	}
	if fmt.Sprintf("%T", msg) == "tea.printLineMessage" {
		return
	}
	_, cmd := h.m.Update(msg)
	h.exec(cmd)
}

// until processes messages until cond holds.
func (h *harness) until(what string, cond func() bool) {
	h.t.Helper()
	deadline := time.After(10 * time.Second)
	for !cond() {
		select {
		case msg := <-h.msgs:
			h.deliver(msg)
		case <-deadline:
			h.t.Fatalf("timed out waiting for %s\nview:\n%s\nprinted:\n%s", what, h.view(), h.printed())
		}
	}
}

// settle processes what is already queued, briefly.
func (h *harness) settle() {
	for {
		select {
		case msg := <-h.msgs:
			h.deliver(msg)
		case <-time.After(50 * time.Millisecond):
			return
		}
	}
}

func (h *harness) view() string    { return ansi.Strip(h.m.View().Content) }
func (h *harness) printed() string { return ansi.Strip(h.m.Printed()) }

// typeText types s into the editor, key by key.
func (h *harness) typeText(s string) {
	for _, r := range s {
		h.deliver(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

func (h *harness) press(code rune, mod ...tea.KeyMod) {
	k := tea.KeyPressMsg{Code: code}
	for _, m := range mod {
		k.Mod |= m
	}
	h.deliver(k)
}

// say types s and presses Enter.
func (h *harness) say(s string) {
	h.typeText(s)
	h.press(tea.KeyEnter)
}

func (h *harness) idle() bool { return !h.m.running && !h.m.printing && len(h.m.pending) == 0 }
