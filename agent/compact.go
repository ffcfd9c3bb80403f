package agent

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/agentcli/agent/agent/hooks"
	"github.com/agentcli/agent/agent/llm"
)

// compactPrompt asks for the summary that replaces the older turns. It
// goes in a user turn after them, so the system prompt, and the cached
// prefix, stay as they are.
const compactPrompt = `[The conversation has grown too long for the model's context window. Before going on, write a summary that will replace everything above this message. Include: the user's task and requirements, in their words where it matters; the decisions made and why; the files read, created or changed, and what changed in them; results of commands and checks; what remains to do, and open questions. Use short paragraphs and lists, at most 400 words. Do not call any tool: this reply is only the summary.]`

// summaryHeader starts the message that replaces the older turns.
const summaryHeader = "[Summary of the earlier conversation, written when it outgrew the context window. The files may have changed since: read them again before editing.]\n\n"

// errNothingToCompact: the conversation is a single turn.
var errNothingToCompact = errors.New("nothing to compact")

// prepare fits req into the Budget before it is sent: first stubs for old
// tool results, then, if they are not enough, a compaction (which asks the
// model for a summary and rewrites the session). It returns the request to
// send and the usage of any summary call. Without a Budget, or with an
// unknown window, req goes as it is. The loop calls it before every model
// call.
func (a *Agent) prepare(ctx context.Context, req llm.Request, iter int, emit func(Event)) (llm.Request, llm.Usage, error) {
	b := a.Budget
	var used llm.Usage
	if b == nil || b.Window <= 0 {
		return req, used, nil
	}
	if b.system == 0 {
		if err := b.CheckSystem(req.System, req); err != nil {
			return req, used, err
		}
	}
	if hasImages(req.Messages) {
		b.imageTokens = a.ImageSpec(ctx).Tokens // the model's rule: it may have changed
	}
	b.system = int(math.Ceil(float64(EstimateTokens(req.System)) * b.correction()))
	out, est := b.shrink(req)
	limit := b.Limit(req)
	if est > int(float64(limit)*highWater) {
		u, err := a.compact(ctx, req, out.Messages, iter, emit)
		used = u
		switch {
		case errors.Is(err, errNothingToCompact):
		case err != nil:
			return req, used, fmt.Errorf("compact the conversation: %w", err)
		default:
			req.Messages = a.Session.Messages()
			out, est = b.shrink(req)
		}
	}
	if est > limit {
		// The newest results alone overflow: they go too, with a stub
		// that tells the model to ask for less.
		for i := range out.Messages {
			if out.Messages[i].Role == llm.User {
				out.Messages[i].Text = b.apply(out.Messages[i].Text, func(string) bool { return true }, b.elide)
				dropImages(&out.Messages[i], func(string) bool { return true }, b.elideImage)
			}
		}
		est = b.Estimate(out)
	}
	if est > limit {
		return req, used, fmt.Errorf("%w: this turn needs about %d tokens and the window leaves %d for it", ErrContextWindow, est, limit)
	}
	b.lastEst = est
	return out, used, nil
}

// Compact summarises the conversation now, whatever its size (the chat's
// /compact): the turns before the last reply are replaced by the model's
// summary, as when the budget runs out. Call it between runs, never
// during one.
func (a *Agent) Compact(ctx context.Context, emit func(Event)) (llm.Usage, error) {
	if emit == nil {
		emit = func(Event) {}
	}
	msgs := a.Session.Messages()
	req := llm.Request{System: a.System, Messages: msgs, MaxTokens: a.MaxTokens}
	shown := msgs
	if a.Budget != nil && a.Budget.Window > 0 {
		req, _ = a.Budget.shrink(req)
		shown = req.Messages
	}
	a.FireHook(WithHookEvents(ctx, emit), hooks.Input{Event: hooks.PreCompact, Trigger: "manual"})
	return a.compact(ctx, req, shown, 0, emit)
}

// compact asks the model to summarise the conversation before its last
// assistant turn, and replaces those turns in the session with the
// summary. shown is the conversation as last prepared (with stubs), so
// the summary request costs no more than a normal one.
func (a *Agent) compact(ctx context.Context, req llm.Request, shown []llm.Message, iter int, emit func(Event)) (llm.Usage, error) {
	var used llm.Usage
	msgs := a.Session.Messages()
	cut := -1
	for i := len(msgs) - 1; i > 0; i-- {
		if msgs[i].Role == llm.Assistant {
			cut = i
			break
		}
	}
	if cut <= 0 || len(shown) != len(msgs) {
		return used, errNothingToCompact
	}
	if iter > 0 && !a.Sub { // the window is full (Compact fired the hooks of /compact)
		a.FireHook(ctx, hooks.Input{Event: hooks.PreCompact, Trigger: "auto"})
	}
	sum := a.summaryRequest(req, shown[:cut])
	var text strings.Builder
	for chunk, err := range a.Model.Stream(ctx, sum) {
		if err != nil {
			return used, err
		}
		text.WriteString(chunk.Text)
		if chunk.Usage != nil {
			used = *chunk.Usage
		}
	}
	summary := strings.TrimSpace(text.String())
	if i := strings.Index(summary, "<tool_response"); i >= 0 {
		summary = strings.TrimSpace(summary[:i])
	}
	if summary == "" {
		return used, ErrEmptyReply
	}
	if a.Budget != nil && a.Budget.Reads != nil {
		for _, m := range msgs[:cut] {
			for _, sp := range responseSpans(m.Text) {
				a.Budget.Reads.ForgetCall(sp.id)
			}
		}
	}
	if err := a.Session.Compact(summaryHeader+summary+a.Session.todoNote(), len(msgs)-cut); err != nil {
		return used, err
	}
	emit(Event{Type: EventCompact, Iteration: iter, Text: summary, Usage: &used})
	return used, nil
}

// summaryRequest is the request for the summary: the same system prompt,
// the older turns, and compactPrompt as the last user turn; every tool
// result stubbed, and turns after the first dropped, when that is what it
// takes to fit.
func (a *Agent) summaryRequest(req llm.Request, older []llm.Message) llm.Request {
	b := a.Budget
	if b == nil || b.Window <= 0 {
		b = &Budget{Window: math.MaxInt32, Reserve: 2048}
	}
	msgs := slices.Clone(older)
	if msgs[len(msgs)-1].Role == llm.User {
		msgs[len(msgs)-1].Text += "\n\n" + compactPrompt
	} else {
		msgs = append(msgs, llm.Message{Role: llm.User, Text: compactPrompt})
	}
	sum := llm.Request{System: req.System, Messages: msgs, Stop: req.Stop, MaxTokens: min(b.reserve(req), 2048)}
	all := func(string) bool { return true }
	if b.Estimate(sum) > b.Limit(sum) {
		for i := range msgs {
			if msgs[i].Role == llm.User {
				msgs[i].Text = b.apply(msgs[i].Text, all, nil)
				dropImages(&msgs[i], all, nil)
			}
		}
	}
	// Drop the oldest turns after the task (a user and an assistant
	// message at a time, so roles still alternate).
	for b.Estimate(sum) > b.Limit(sum) && len(sum.Messages) > 3 {
		sum.Messages = append(sum.Messages[:1:1], sum.Messages[3:]...)
	}
	return sum
}

// Compact replaces the conversation before its last keep messages with
// one user message, summary. The log keeps every message and gets a
// "compact" line marking the point, so a continued session starts from
// the summary too.
func (s *Session) Compact(summary string, keep int) error {
	if err := s.open(); err != nil {
		return err
	}
	if err := s.write(record{Type: "compact", Time: s.now().UTC(), Text: summary, Kept: keep}); err != nil {
		return err
	}
	s.compacted(summary, keep)
	return nil
}

func (s *Session) compacted(summary string, keep int) {
	keep = min(max(keep, 0), len(s.msgs))
	tail := slices.Clone(s.msgs[len(s.msgs)-keep:])
	s.msgs = []llm.Message{{Role: llm.User, Text: summary}}
	s.turns = nil // the turns before are in the summary: none to rewind to
	for _, m := range tail {
		s.msgs = merge(s.msgs, m)
	}
}
