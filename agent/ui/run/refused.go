package run

import (
	"fmt"
	"io"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/tools"
)

// SayRefused tells on errOut why writes of out were refused by the
// approval policy (only the person's own yes, nobody to approve, a deny
// rule, a hook), and reports whether any were.
func SayRefused(errOut io.Writer, out *agent.Outcome) bool {
	n, ruled, consent, hooked := refusedWrites(out)
	if n == 0 {
		return false
	}
	if hooked > 0 {
		fmt.Fprintf(errOut, "agent: %s refused by your hooks (agent hooks lists them)\n", plural(hooked, "call was", "calls were"))
		n -= hooked
	}
	if consent > 0 {
		fmt.Fprintf(errOut, "agent: %s refused: only your own yes runs it, which --yes does not give; approve it in the chat, or see git.auto_commit in the README\n", plural(consent, "call was", "calls were"))
		n -= consent
	}
	if n > ruled {
		them := map[bool]string{true: "it", false: "them"}[n-ruled == 1]
		fmt.Fprintf(errOut, "agent: %s refused: nobody could approve %s; rerun with --yes to allow %s\n", plural(n-ruled, "call was", "calls were"), them, them)
	}
	if ruled > 0 {
		fmt.Fprintf(errOut, "agent: %s refused by your permissions.deny rules (agent config shows them)\n", plural(ruled, "call was", "calls were"))
	}
	return true
}

// refusedWrites counts the calls the approval policy refused, and of
// those the ones a deny rule refused, the ones only a person may approve
// (consent) and the ones a hook refused; a person's "n" is not counted.
func refusedWrites(out *agent.Outcome) (n, ruled, consent, hooked int) {
	if out == nil {
		return 0, 0, 0, 0
	}
	for _, c := range out.Calls {
		if c.ByPolicy && c.Result.Code == tools.CodePolicyDenied {
			n++
			switch {
			case c.Rule != "":
				ruled++
			case c.DecidedBy == "consent":
				consent++
			case c.DecidedBy == "hook":
				hooked++
			}
		}
	}
	return n, ruled, consent, hooked
}

// plural words a count: "1 write was", "2 writes were".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
