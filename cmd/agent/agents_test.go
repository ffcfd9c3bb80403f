package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentcli/agent/agent/llm/llmtest"
)

// TestTaskCallsOverlap: two task calls of the read-only explorer in one
// reply run at the same time. The fake Gemini server holds the answer to
// each explorer's request until both requests have arrived, so the run
// ends only if both model requests are in flight before either is
// answered; one after the other, the first would wait for a request that
// never comes (the test gives up after a minute and says so).
func TestTaskCallsOverlap(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{"a.go": "package a\n", "b.go": "package b\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := llmtest.NewGeminiServer(t,
		llmtest.Say(`<tool_call name="task" id="1"><agent>explore</agent><prompt>what is in a.go?</prompt></tool_call>`+
			`<tool_call name="task" id="2"><agent>explore</agent><prompt>what is in b.go?</prompt></tool_call>`),
		llmtest.Say("a.go and b.go are two packages."),
	)
	var (
		mu       sync.Mutex
		events   []string // "arrived: what is in a.go?", "gave up"
		arrivals int
		both     = make(chan struct{}) // closed when both explorers' requests are in
		release  = make(chan struct{}) // what each answer waits for
	)
	go func() {
		select {
		case <-both:
		case <-time.After(time.Minute): // a deadlock breaker, not a speed bound
			mu.Lock()
			events = append(events, "gave up")
			mu.Unlock()
		case <-t.Context().Done():
		}
		close(release)
	}()
	srv.Intercept(func(r llmtest.Request) (llmtest.Answer, bool) {
		if !strings.Contains(r.System, "You are an explorer") {
			return llmtest.Answer{}, false // the main conversation: the script
		}
		mu.Lock()
		defer mu.Unlock()
		q := r.LastUser()
		events = append(events, "arrived: "+q)
		if arrivals++; arrivals == 2 {
			close(both)
		}
		return llmtest.Answer{Chunks: []string{"found for " + q}, Hold: release}, true
	})

	var out, errOut bytes.Buffer
	d := newFactory(&streams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut})
	d.env = map[string]string{"HOME": t.TempDir(), "XDG_CONFIG_HOME": t.TempDir(), "PATH": os.Getenv("PATH")}
	for _, kv := range srv.Env() {
		k, v, _ := strings.Cut(kv, "=")
		d.env[k] = v
	}
	root := newRootCmd(d)
	root.SetArgs([]string{"run", "--dir", dir, "look at both files"})
	if err := root.ExecuteContext(t.Context()); err != nil {
		t.Fatalf("agent run: %v\n%s", err, errOut.String())
	}
	mu.Lock()
	got := strings.Join(events, "; ")
	mu.Unlock()
	if strings.Contains(got, "gave up") || arrivals != 2 {
		t.Fatalf("the explorers' requests were not both in flight at once: %s", got)
	}
	if !strings.Contains(out.String(), "a.go and b.go are two packages.") {
		t.Errorf("answer: %s", out.String())
	}
	reqs := srv.Requests()
	last := reqs[len(reqs)-1].LastUser()
	first, second := strings.Index(last, "found for what is in a.go?"), strings.Index(last, "found for what is in b.go?")
	if first < 0 || second < first {
		t.Errorf("the main conversation did not get both answers in the reply's order:\n%s", last)
	}
}
