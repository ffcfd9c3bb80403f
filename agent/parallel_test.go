package agent

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/agentcli/agent/agent/llm/llmtest"
	"github.com/agentcli/agent/tools"
)

// overlapTool is a tool whose calls say whether they may run beside
// others (their "alone" parameter) and record when they start and end.
// A call with a partner waits, before it ends, until its partner has
// started: two such calls finish only if they run at the same time.
type overlapTool struct {
	tools.Tool
	mu      sync.Mutex
	log     []string
	started map[string]chan struct{}
}

type overlapArgs struct {
	Name    string `json:"name"`
	Partner string `json:"partner,omitempty"`
	Alone   bool   `json:"alone,omitempty"`
	// Peek names a call to look for, without waiting, before ending.
	Peek string `json:"peek,omitempty"`
}

func newOverlapTool(names ...string) *overlapTool {
	o := &overlapTool{started: map[string]chan struct{}{}}
	for _, n := range names {
		o.started[n] = make(chan struct{})
	}
	o.Tool = tools.New("sub", "Runs a pretend sub-agent.", func(ctx context.Context, a overlapArgs) (tools.Result, error) {
		o.note("start " + a.Name)
		close(o.started[a.Name])
		if a.Partner != "" {
			select {
			case <-o.started[a.Partner]:
			case <-ctx.Done():
				o.note("stopped " + a.Name)
				return tools.Result{}, ctx.Err()
			}
		}
		if a.Peek != "" {
			select {
			case <-o.started[a.Peek]:
				o.note(a.Name + " saw " + a.Peek)
			default:
				o.note(a.Name + " alone")
			}
		}
		o.note("end " + a.Name)
		return tools.Result{Message: "done " + a.Name}, nil
	})
	return o
}

func (o *overlapTool) note(s string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.log = append(o.log, s)
}

// Concurrent is the call's own word: alone or not.
func (o *overlapTool) Concurrent(in tools.Input) bool {
	alone, _ := in.Values["alone"].(bool)
	return !alone
}

func sub(id, name, partner string, alone bool) string {
	s := fmt.Sprintf(`<tool_call name="sub" id="%s"><name>%s</name>`, id, name)
	if partner != "" {
		s += "<partner>" + partner + "</partner>"
	}
	if alone {
		s += "<alone>true</alone>"
	}
	return s + "</tool_call>"
}

// TestParallelCalls: calls whose tool says they may run together run at
// the same time, up to MaxParallel (a and b each wait for the other to
// have started, so they end only because they overlap); c, a third in a
// row, waits for the group before it; d, which must run alone, runs
// after them and before e. The answers come back in the reply's order.
func TestParallelCalls(t *testing.T) {
	o := newOverlapTool("a", "b", "c", "d", "e")
	e := newEnv(t, texts(
		sub("1", "a", "b", false)+sub("2", "b", "a", false)+sub("3", "c", "", false)+sub("4", "d", "", true)+sub("5", "e", "", false),
		"all done",
	)...)
	e.agent.Tools = tools.NewRegistry(o)
	e.agent.MaxParallel = 2
	out, err := e.run("go")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range e.results() {
		ids = append(ids, r.ID+"="+r.Result.Code)
	}
	if got := strings.Join(ids, " "); got != "1= 2= 3= 4= 5=" {
		t.Errorf("results %s, want 1 to 5 in order, all ok", got)
	}
	if out.Answer != "all done" {
		t.Errorf("answer %q", out.Answer)
	}
	log := strings.Join(o.log, ", ")
	pos := func(s string) int {
		i := strings.Index(log, s)
		if i < 0 {
			t.Fatalf("%q not in the log %s", s, log)
		}
		return i
	}
	if pos("start a") > pos("end b") || pos("start b") > pos("end a") {
		t.Errorf("a and b did not overlap: %s", log)
	}
	for _, before := range []string{"end a", "end b"} {
		if pos(before) > pos("start c") {
			t.Errorf("c started before the group of two ended (%s): %s", before, log)
		}
	}
	if pos("end c") > pos("start d") || pos("end d") > pos("start e") {
		t.Errorf("d did not run alone between c and e: %s", log)
	}
}

// TestParallelCallsOneAtATime: with MaxParallel unset calls run one
// after the other: a, looking for b before it ends, never sees it.
func TestParallelCallsOneAtATime(t *testing.T) {
	o := newOverlapTool("a", "b")
	e := newEnv(t, texts(`<tool_call name="sub" id="1"><name>a</name><peek>b</peek></tool_call>`+sub("2", "b", "a", false), "done")...)
	e.agent.Tools = tools.NewRegistry(o)
	if _, err := e.run("go"); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(o.log, ", "); got != "start a, a alone, end a, start b, end b" {
		t.Errorf("log %s, want a then b", got)
	}
}

// TestParallelCallsStop: cancelling the run (Esc) stops every call of
// the group, and the run ends cancelled with each call answered.
func TestParallelCallsStop(t *testing.T) {
	o := newOverlapTool("a", "b", "never")
	e := newEnv(t, llmtest.Reply{Text: sub("1", "a", "never", false) + sub("2", "b", "never", false)})
	e.agent.Tools = tools.NewRegistry(o)
	e.agent.MaxParallel = 4
	ctx, cancel := context.WithCancel(t.Context())
	var seen sync.Map
	_, err := e.agent.Run(ctx, "go", func(ev Event) {
		if ev.Type == EventToolStart {
			seen.Store(ev.Call.ID, true)
			if _, ok := seen.Load("1"); ok {
				if _, ok := seen.Load("2"); ok {
					cancel() // both are running: stop them
				}
			}
		}
		e.events = append(e.events, ev)
	})
	if err == nil || ctx.Err() == nil {
		t.Fatalf("run ended with %v, want cancelled", err)
	}
	log := strings.Join(o.log, ", ")
	if !strings.Contains(log, "stopped a") || !strings.Contains(log, "stopped b") {
		t.Errorf("not both stopped: %s", log)
	}
	var codes []string
	for _, r := range e.results() {
		codes = append(codes, r.ID+"="+r.Result.Code)
	}
	if got := strings.Join(codes, " "); got != "1=TOOL_INTERRUPTED 2=TOOL_INTERRUPTED" {
		t.Errorf("results %s, want both interrupted", got)
	}
}
