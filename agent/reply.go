package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/xmlcall"
)

// maxReplyBytes bounds one reply; far above any real model's output
// limit, it keeps memory bounded against an endless stream.
const maxReplyBytes = 8 << 20

// item is one call of a reply, complete or broken, in reply order.
type item struct {
	call *xmlcall.Call
	err  *xmlcall.Error
}

// reply is one streamed model reply.
type reply struct {
	// text is the reply as the model wrote it, up to where the loop
	// stopped reading; it goes into the conversation.
	text  strings.Builder
	prose strings.Builder // the text outside calls: the answer, when there is no call
	items []item
	usage llm.Usage
	// finish is the provider's finish reason, when it gave one.
	finish string
	// stopped is true when the model began writing <tool_response.
	stopped bool
	// fence keeps the markdown fences around calls out of the prose
	// shown.
	fence fenceFilter
}

func (r *reply) hasCall() bool {
	return slices.ContainsFunc(r.items, func(it item) bool { return it.call != nil })
}

// ask streams one reply. A stream that drops before any complete call is
// asked again once (the partial text is discarded, and the caller is told
// with an EventRetry); one that drops after a complete call is kept as it
// is, since asking again could make the model repeat a write: its last
// call is then reported incomplete.
func (a *Agent) ask(ctx context.Context, req llm.Request, iter int, emit func(Event)) (*reply, error) {
	for attempt := 0; ; attempt++ {
		r, err := a.stream(ctx, req, iter, emit)
		if err == nil || !errors.Is(err, llm.ErrStreamDropped) || ctx.Err() != nil {
			return r, err
		}
		if r.hasCall() {
			return r, nil
		}
		if attempt > 0 {
			return r, fmt.Errorf("stream dropped twice: %w", err)
		}
		emit(Event{Type: EventRetry, Iteration: iter, Retry: &Retry{
			Reason: "stream_dropped", Provider: providerOf(a.Model), Attempt: attempt + 1, Attempts: 2,
			Message: "the reply stream dropped before any tool call; asking again",
		}})
	}
}

// stream sends req and feeds the reply through a Scanner, emitting text
// and call events as they arrive. On an error it returns what it read so
// far, with any call cut off by the error reported as incomplete.
func (a *Agent) stream(ctx context.Context, req llm.Request, iter int, emit func(Event)) (*reply, error) {
	r := &reply{}
	sc := xmlcall.NewScanner(a.Tools.ParamNames)
	// Ids the Scanner assigns must be unique in the conversation, not
	// just in this reply.
	sc.IDPrefix = fmt.Sprintf("r%d-", a.Session.Replies()+1)
	var streamErr error
	for chunk, err := range a.Model.Stream(ctx, req) {
		if err != nil {
			streamErr = err
			break
		}
		if chunk.Usage != nil {
			// The last count wins: some providers repeat a running
			// total on every chunk.
			r.usage = *chunk.Usage
		}
		if chunk.Finish != "" {
			r.finish = chunk.Finish
		}
		if chunk.Thought != "" {
			emit(Event{Type: EventThought, Iteration: iter, Text: chunk.Thought})
		}
		if chunk.Text == "" {
			continue
		}
		r.text.WriteString(chunk.Text)
		r.take(sc.Feed(chunk.Text), iter, emit)
		if r.text.Len() > maxReplyBytes {
			// A reply this long is a model gone wrong (or a hostile
			// server): end it as if cut by the output limit, so a call
			// it was writing is answered CALL_INCOMPLETE.
			r.finish = "length"
			break
		}
		if sc.Stopped() {
			r.stopped = true
			r.cut(sc.StopOffset())
			break
		}
	}
	r.take(sc.Close(), iter, emit)
	r.showText(r.fence.flush(), iter, emit)
	if r.usage != (llm.Usage{}) {
		u := r.usage
		emit(Event{Type: EventUsage, Iteration: iter, Usage: &u})
	}
	return r, streamErr
}

// take records the Scanner's events and passes them on. The Scanner's
// events are only valid until its next Feed, so calls are copied.
func (r *reply) take(evs []xmlcall.Event, iter int, emit func(Event)) {
	for _, ev := range evs {
		switch {
		case ev.Text != "":
			r.showText(r.fence.text(ev.Text), iter, emit)
		case ev.Call != nil:
			r.fence.call()
			c := *ev.Call
			c.Params = slices.Clone(c.Params)
			r.items = append(r.items, item{call: &c})
			emit(Event{Type: EventCall, Iteration: iter, Call: &c})
		case ev.Err != nil:
			r.fence.call()
			e := *ev.Err
			r.items = append(r.items, item{err: &e})
		}
	}
}

func (r *reply) showText(t string, iter int, emit func(Event)) {
	if t == "" {
		return
	}
	r.prose.WriteString(t)
	emit(Event{Type: EventText, Iteration: iter, Text: t})
}

// cut drops the model-written <tool_response and everything after it
// from the reply text; off is where the Scanner saw it begin.
func (r *reply) cut(off int) {
	if off < 0 || off > r.text.Len() {
		return
	}
	s := r.text.String()[:off]
	r.text.Reset()
	r.text.WriteString(s)
}

func addUsage(a, b llm.Usage) llm.Usage { return a.Add(b) }

// providerOf is the provider part of a model's "provider/model" name.
func providerOf(m llm.Model) string {
	p, _, _ := strings.Cut(m.Name(), "/")
	return p
}
