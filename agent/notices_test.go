package agent

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/agentcli/agent/tools"
)

// queuedNotices is a Notices whose lines the test adds at chosen moments.
type queuedNotices struct {
	mu      sync.Mutex
	lines   []string
	changed []string
}

func (q *queuedNotices) add(line string, changed ...string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.lines = append(q.lines, line)
	q.changed = append(q.changed, changed...)
}

func (q *queuedNotices) TakeNotices() (lines, changed []string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	lines, changed = q.lines, q.changed
	q.lines, q.changed = nil, nil
	return lines, changed
}

// watchRecorder is a Watcher that records which files it was told are
// the agent's own.
type watchRecorder struct{ ours [][]string }

func (w *watchRecorder) Changes(ours []string) string {
	w.ours = append(w.ours, append([]string(nil), ours...))
	return ""
}

func TestNoticesReachTheNextRequestOfTheSameRun(t *testing.T) {
	e := newEnv(t, texts(`<tool_call name="work" id="1"/>`, `<tool_call name="work" id="2"/>`, "Done.", "Ok.")...)
	q := &queuedNotices{}
	e.agent.Notices = q
	q.add("Background job 1 (make) ended: exit code 0 after 1s.")
	// A job ends while the model's first call runs: its notice waits
	// for the next request, the same run's second.
	calls := 0
	e.agent.Tools.Add(tools.New("work", "Work a while.", func(context.Context, struct{}) (tools.Result, error) {
		if calls++; calls == 1 {
			q.add("Background job 2 (sleep 2; echo done) ended: exit code 0 after 2s. Output ends: \"done\".", "out.txt")
		}
		return tools.Result{Message: "worked"}, nil
	}))

	if _, err := e.run("read README.md"); err != nil {
		t.Fatal(err)
	}
	reqs := e.model.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	first := reqs[0].Messages[len(reqs[0].Messages)-1].Text
	if !strings.HasPrefix(first, "Background job 1 (make) ended") || !strings.HasSuffix(first, "read README.md") {
		t.Errorf("first user turn = %q, want the pending notice before the prompt", first)
	}
	second := reqs[1].Messages[len(reqs[1].Messages)-1].Text
	if !strings.Contains(second, `<tool_response id="1">`) || !strings.HasSuffix(strings.TrimSpace(second), `Output ends: "done".`) {
		t.Errorf("second request's user turn = %q, want the tool response then the job's notice", second)
	}
	if strings.Count(second, "Background job") != 1 || strings.Contains(reqs[2].Messages[len(reqs[2].Messages)-1].Text, "Background job") {
		t.Error("a notice was sent twice")
	}

	// The job's files are the agent's own for the watcher at the next run.
	w := &watchRecorder{}
	e.agent.Watcher = w
	if _, err := e.run("thanks"); err != nil {
		t.Fatal(err)
	}
	if len(w.ours) != 1 || !strings.Contains(strings.Join(w.ours[0], " "), "out.txt") {
		t.Errorf("watcher told ours = %v, want out.txt among them", w.ours)
	}
}
