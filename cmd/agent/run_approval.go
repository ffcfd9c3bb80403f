package main

import (
	"bufio"
	"context"
	"fmt"
	stdio "io"
	"strings"

	"github.com/agentcli/agent/agent"
)

// terminalAsker asks on the terminal before each write: the question on
// stderr, the answer read from answers (stdin, or the terminal itself when
// stdin is a pipe). "a" allows every later write of the run too.
func terminalAsker(io *streams, answers stdio.Reader, root string) agent.Asker {
	in := bufio.NewReader(answers)
	return func(ctx context.Context, req agent.ApprovalRequest) (agent.Decision, error) {
		if p := writePreview(root, req); p != "" {
			fmt.Fprintf(io.ErrOut, "\n%s", safeText(p))
		}
		fmt.Fprintf(io.ErrOut, "\nallow %s? [y]es / [n]o / [a]ll writes of this run: ", safeText(callSummary(&req.Call)))
		type line struct {
			s   string
			err error
		}
		got := make(chan line, 1)
		go func() {
			s, err := in.ReadString('\n')
			got <- line{s, err}
		}()
		select {
		case <-ctx.Done():
			fmt.Fprintln(io.ErrOut)
			return agent.Deny, ctx.Err()
		case l := <-got:
			switch strings.ToLower(strings.TrimSpace(l.s)) {
			case "y", "yes":
				return agent.Allow, nil
			case "a", "all":
				return agent.AllowAll, nil
			}
			if l.err != nil && l.s == "" {
				// End of input: nobody is there to say yes.
				fmt.Fprintln(io.ErrOut)
			}
			return agent.Deny, nil
		}
	}
}

// approvalInput is where the answers to approval questions come from: stdin
// when it is a terminal; otherwise the controlling terminal, when the
// question can be seen there (stderr is a terminal) — `echo task | agent
// run` typed in a terminal still asks. Nil means nobody can answer (CI),
// and writes are denied with advice to use --yes. The closer releases
// what was opened.
func approvalInput(s *streams) (stdio.Reader, func()) {
	if s.stdinTTY {
		return s.In, func() {}
	}
	if !s.stderrTTY || s.openTTY == nil {
		return nil, func() {}
	}
	tty, err := s.openTTY()
	if err != nil {
		return nil, func() {}
	}
	return tty, func() { tty.Close() }
}
