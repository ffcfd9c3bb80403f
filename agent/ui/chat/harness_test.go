package chat

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/app"
	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/conversation"
	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/llm/llmtest"
)

// testConv is the real conversation (the conversation package's
// Builder, the file tools, sessions, backups and approval) over a
// scripted model in a temporary project: the chat is driven exactly as
// in production, less the terminal and the provider.
type testConv struct {
	*conversation.Conversation
	root   string
	script *llmtest.Script
	// switched is the model /model built last.
	switched *llmtest.Script
}

func newTestConv(t testing.TB, replies ...llmtest.Reply) *testConv {
	t.Helper()
	// A short folder, so that the status line shows it whole.
	root, err := os.MkdirTemp("", "proj")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	s := llmtest.NewScript(replies...)
	s.ModelName = "script/test-model"
	b := &testConv{root: root, script: s}
	builder := &app.Builder{
		LocalConfig: func(string) (config.Config, error) { return config.Defaults(), nil },
		// /model builds a scripted model of the name asked for.
		Config: func(_ context.Context, _ string, f config.Flags) (config.Config, error) {
			cfg := config.Defaults()
			cfg.Provider, cfg.Model = f.Provider, f.Model
			cfg.APIKey = "test" // as if the provider's key were set
			return cfg, nil
		},
		Model: func(_ context.Context, cfg config.Config) (llm.Model, error) {
			b.switched = llmtest.NewScript(reply("Reviewed."))
			b.switched.ModelName = cfg.Provider + "/" + cfg.Model
			return b.switched, nil
		},
	}
	c, err := builder.New(context.Background(), conversation.Options{Dir: root, Model: s, System: "You are a test.", Policy: agent.PolicyAsk})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	b.Conversation = c
	return b
}

func (b *testConv) write(t *testing.T, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(b.root, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (b *testConv) read(t *testing.T, name string) string {
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
	b    *testConv
	msgs chan tea.Msg
	quit bool
	wg   sync.WaitGroup
	// raw is what the chat wrote to the terminal as is (the bell).
	raw []string
}

func newHarness(t *testing.T, b *testConv, o Options) *harness {
	t.Helper()
	if o.Conversation == nil {
		o.Conversation = b
	}
	if o.Root == "" {
		o.Root = b.root
	}
	o.Width = 80
	m := New(context.Background(), o)
	b.SetAsker(m.Asker(), "")
	b.SetUserAsker(m.UserAsker())
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
	if r, ok := msg.(tea.RawMsg); ok {
		h.raw = append(h.raw, fmt.Sprint(r.Msg))
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
