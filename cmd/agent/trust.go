package main

import (
	"context"
	"fmt"

	"github.com/agentcli/agent/agent/config"

	"github.com/agentcli/agent/agent/ui/run"
)

// A project's settings that could send data or keys elsewhere, or run
// programs, apply only once the user trusts the project (the trust list
// is agent/config's): asked here once on a terminal, or given for one
// process with --trust.

// settleTrust decides whether the project at root is trusted, asking on
// the terminal when it has settings waiting for trust and nothing has
// decided yet, and says on stderr what is ignored. It returns whether
// the project is trusted.
func (f *factory) settleTrust(ctx context.Context, root string, cfg config.Config) (bool, error) {
	env := f.environ()
	for _, ig := range cfg.Ignored {
		if ig.UserOnly {
			run.SayIgnored(f.io.ErrOut, ig)
		}
	}
	pending := config.PendingTrust(cfg, env, root)
	if len(pending) == 0 {
		return false, nil
	}
	if f.trust || config.IsTrusted(env, root) {
		return true, nil
	}
	if in, out, closeTTY := run.ApprovalTerminal(f.io.term()); in != nil {
		yes, err := run.AskTrust(ctx, in, out, root, pending)
		closeTTY()
		if err != nil {
			return false, err
		}
		if yes {
			if err := config.RememberTrust(env, root); err != nil {
				fmt.Fprintf(f.io.ErrOut, "agent: trusted for this run only: %v\n", err)
			}
			return true, nil
		}
	}
	run.SayUntrusted(f.io.ErrOut, pending)
	return false, nil
}
