package run

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/conversation"
	"github.com/agentcli/agent/internal/termtext"
)

// ErrInterrupted is how a cancelled run is reported.
var ErrInterrupted = errors.New("interrupted")

// Request is the request of one run.
type Request struct {
	Prompt string
	// ReadPipe says standard input is read beside the prompt (ReadPiped)
	// and joined to it once the context budget is known.
	ReadPipe bool
	// Notice is how long piped input is waited for before saying so; 3 s
	// when 0.
	Notice time.Duration
}

// Run sends req to conv and shows the run with p on s: the piped text
// read and joined, approval asked on the terminal when someone can
// answer, the waits shown, the summary given and the output finished.
// started is false when it failed before the loop started (nothing was
// printed: the caller reports runErr); an interruption then is
// ErrInterrupted.
func Run(ctx context.Context, conv *conversation.Conversation, p Printer, s Streams, req Request) (out *agent.Outcome, runErr error, started bool) {
	prompt := req.Prompt
	var (
		piped    string
		pipedCut int64
		err      error
	)
	if req.ReadPipe {
		timeout := time.Duration(conv.Config().StdinTimeout)
		if piped, pipedCut, err = ReadPiped(ctx, s.In, s.ErrOut, req.Notice, timeout); err != nil {
			if ctx.Err() != nil {
				return nil, ErrInterrupted, false
			}
			return nil, err, false
		}
	}
	if piped != "" || pipedCut > 0 {
		var note string
		if prompt, note = conv.WithPiped(prompt, piped, pipedCut); note != "" {
			fmt.Fprintf(s.ErrOut, "agent: %s\n", note)
		}
	}
	const noOne = "tell the user to rerun the command with --yes to allow it"
	conv.SetAsker(nil, noOne)
	conv.SetUserAsker(nil)
	// Ask only when someone can answer, on the terminal itself: the
	// approvals under the ask policy, the model's questions always
	// (--yes answers no question).
	if tin, tout, closeTTY := ApprovalTerminal(s); tin != nil {
		defer closeTTY()
		t := NewTerminalAsker(tin, tout, ColorOn(s))
		conv.SetUserAsker(t)
		if conv.Policy() == agent.PolicyAsk {
			conv.SetAsker(t, noOne)
		}
	}

	// Waits for the model are shown on stderr (text output only).
	if m, stop, ok := ShowWaits(p, s, conv.Model()); ok {
		conv.SetModel(m)
		defer stop()
	}

	// After Ctrl+C the failure is the interruption, whatever the SDK
	// made of the cancelled request.
	emit := func(ev agent.Event) {
		if ev.Type == agent.EventError && ctx.Err() != nil {
			ev.Err = ErrInterrupted
		}
		p.Event(ev)
	}
	runStart := time.Now()
	out, runErr = conv.Run(ctx, prompt, emit)
	if runErr != nil && out != nil {
		// Failed before the model's first reply: no session is left
		// behind (nor named in the summary).
		if gone, err := conv.DiscardUnanswered(); gone {
			out.SessionID = ""
		} else if err != nil {
			fmt.Fprintf(s.ErrOut, "agent: %s\n", termtext.Escape(err.Error()))
		}
	}
	if out != nil {
		p.Summarize(SummaryOf(out, conv.Root(), runStart))
	}
	if runErr != nil && ctx.Err() != nil {
		runErr = ErrInterrupted
	}
	if err := p.Finish(out, runErr); err != nil && runErr == nil {
		runErr = fmt.Errorf("write output: %w", err)
	}
	return out, runErr, true
}
