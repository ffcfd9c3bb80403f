package agent

import (
	"context"

	"github.com/agentcli/agent/agent/hooks"
	"github.com/agentcli/agent/tools"
)

// The loop's moments that concern a person who may not be looking: a
// call waits for their approval (decide's asking, in calls.go), the
// model asks them a question, the turn is over. Each is one
// EventNotification, which the chat's bell (and whatever else wants to
// tell a person) reads.

// withEndNotice reports the turn's end as a notification just before the
// run's last event (done or error).
func (a *Agent) withEndNotice(ctx context.Context, emit func(Event)) func(Event) {
	return func(e Event) {
		if e.Type == EventDone || e.Type == EventError {
			at := WithHookEvents(ctx, func(h Event) {
				h.Iteration = e.Iteration
				emit(h)
			})
			a.notify(at, e.Iteration, emit, Notification{Kind: NotifyDone, Message: "the turn is over"})
		}
		emit(e)
	}
}

// notify tells a person who may not be looking that the agent waits for
// them, or that the turn is over: an EventNotification (the chat's bell)
// and the Notification hooks (Notify). Every such moment of the loop
// goes through it.
func (a *Agent) notify(ctx context.Context, iter int, emit func(Event), n Notification) {
	emit(Event{Type: EventNotification, Iteration: iter, Notification: &n})
	if a.Sub && n.Kind == NotifyDone {
		return // a sub-agent's end is its call's, not the turn's
	}
	a.Notify(ctx, n)
}

// Notify fires the Notification hooks with n (its Message, and its Kind
// as notification_type): the loop calls it, through notify, when a call
// waits for a person's approval, when the model asks the person a
// question, and when the turn is over; a face that waits for the person
// in another way calls it too (conversation.Conversation.Notify). What
// the hooks did is reported where ctx says (WithHookEvents). Not when
// ctx is done: the person stopped the work, and is there.
func (a *Agent) Notify(ctx context.Context, n Notification) {
	if ctx.Err() != nil {
		return
	}
	a.FireHook(ctx, hooks.Input{Event: hooks.Notification, Message: n.Message, Kind: n.Kind})
}

// withUserAsker gives the call's tools the conversation's UserAsker,
// which reports each question as an EventNotification before it asks;
// without one the context has none and the question is answered at once.
func (a *Agent) withUserAsker(ctx context.Context, iter int, emit func(Event)) context.Context {
	if a.AskUser == nil {
		return ctx
	}
	return tools.WithUserAsker(ctx, notifyingAsker{a.AskUser, a, iter, emit})
}

// notifyingAsker is a UserAsker that reports each question first.
type notifyingAsker struct {
	tools.UserAsker
	a    *Agent
	iter int
	emit func(Event)
}

func (n notifyingAsker) AskUser(ctx context.Context, q tools.UserQuestion) (tools.UserAnswer, error) {
	n.a.notify(ctx, n.iter, n.emit, Notification{Kind: NotifyQuestion, Message: q.Question})
	return n.UserAsker.AskUser(ctx, q)
}
