package agent

import (
	"context"
	"sync"

	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/xmlcall"
)

// parentKey finds the call a tool runs for in its context: what a
// sub-agent started by that tool reports to.
type parentKey struct{}

// parentCall is the call of the parent conversation a sub-agent runs
// inside: its events go out as EventNested of the call, and its token
// usage is added to the parent run's.
type parentCall struct {
	emit  func(Event)
	usage *usageSum
}

// usageSum adds up the tokens of the sub-agents of one reply's calls. A
// cancelled tool may still be finishing after the loop moved on, hence
// the lock.
type usageSum struct {
	mu sync.Mutex
	u  llm.Usage
}

func (s *usageSum) add(u llm.Usage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.u = s.u.Add(u)
}

// take returns the usage added so far and starts again from zero.
func (s *usageSum) take() llm.Usage {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.u
	s.u = llm.Usage{}
	return u
}

// withParent is ctx for running call c of iteration iter: a sub-agent run
// in it (RunNested) reports to emit and adds its tokens to sum.
func withParent(ctx context.Context, sum *usageSum, c *xmlcall.Call, iter int, emit func(Event)) context.Context {
	p := &parentCall{usage: sum, emit: func(e Event) {
		emit(Event{Type: EventNested, Iteration: iter, Call: c, Nested: &e})
	}}
	return context.WithValue(ctx, parentKey{}, p)
}

// RunNested runs prompt as a new conversation of a (a sub-agent, such
// as the explorer) inside the tool call ctx belongs to: each of its
// events reaches the parent's face as an EventNested of that call, and
// the tokens it spends count in the parent run's usage, whether it ends
// with an answer or not. Cancelling ctx (the person's Esc) stops it.
// Outside a call it runs on its own and reports to nobody.
func (a *Agent) RunNested(ctx context.Context, prompt string) (*Outcome, error) {
	p, _ := ctx.Value(parentKey{}).(*parentCall)
	emit := func(Event) {}
	if p != nil {
		// Its end is a call's, not the turn's: nobody is told of it.
		emit = func(e Event) {
			if e.Type != EventNotification {
				p.emit(e)
			}
		}
	}
	out, err := a.Run(ctx, prompt, emit)
	if p != nil && out != nil {
		p.usage.add(out.Usage)
	}
	return out, err
}
