package agent

import (
	"context"

	"github.com/agentcli/agent/tools"
)

// The loop's moments that concern a person who may not be looking: a
// call waits for their approval (decide's asking, in calls.go), the
// model asks them a question, the turn is over. Each is one
// EventNotification, which the chat's bell (and whatever else wants to
// tell a person) reads.

// withEndNotice reports the turn's end as an EventNotification just
// before the run's last event (done or error).
func withEndNotice(emit func(Event)) func(Event) {
	return func(e Event) {
		if e.Type == EventDone || e.Type == EventError {
			emit(Event{Type: EventNotification, Iteration: e.Iteration, Notification: &Notification{Kind: NotifyDone, Message: "the turn is over"}})
		}
		emit(e)
	}
}

// withUserAsker gives the call's tools the conversation's UserAsker,
// which reports each question as an EventNotification before it asks;
// without one the context has none and the question is answered at once.
func (a *Agent) withUserAsker(ctx context.Context, iter int, emit func(Event)) context.Context {
	if a.AskUser == nil {
		return ctx
	}
	return tools.WithUserAsker(ctx, notifyingAsker{a.AskUser, iter, emit})
}

// notifyingAsker is a UserAsker that reports each question first.
type notifyingAsker struct {
	tools.UserAsker
	iter int
	emit func(Event)
}

func (n notifyingAsker) AskUser(ctx context.Context, q tools.UserQuestion) (tools.UserAnswer, error) {
	n.emit(Event{Type: EventNotification, Iteration: n.iter, Notification: &Notification{Kind: NotifyQuestion, Message: q.Question}})
	return n.UserAsker.AskUser(ctx, q)
}
