package agent

import "strconv"

// Permissions are the user's standing rules about calls that write, the
// [permissions] table of their own config file. A call a Deny rule
// covers is refused whatever the policy (even auto); one an Allow rule
// covers runs without asking under the ask policy. Deny beats allow. The
// never and plan policies still refuse every write: an allow rule only
// saves the question. cmd/agent builds the rules (what a rule covers
// depends on the tool: a file's path, a command's words).
type Permissions struct {
	Allow, Deny []Rule
}

// Rule is one entry of permissions.allow or permissions.deny.
type Rule struct {
	// Text is the rule as the user wrote it ("docs/**",
	// "write_file:docs/**", "run_command:git push").
	Text string
	// Covers reports whether the rule applies to the call. It must not
	// block: it runs before anyone is asked.
	Covers func(q Question) bool
}

// RuleDecision is what a permission rule decided about a call.
type RuleDecision struct {
	Allow bool
	// Label names the rule for people and logs:
	// `permissions.allow "docs/**"`.
	Label string
}

// Decide returns the rule that decides q, deny rules first; ok is false
// when no rule covers it.
func (p Permissions) Decide(q Question) (d RuleDecision, ok bool) {
	for _, r := range p.Deny {
		if r.Covers != nil && r.Covers(q) {
			return RuleDecision{Label: ruleLabel("deny", r.Text)}, true
		}
	}
	for _, r := range p.Allow {
		if r.Covers != nil && r.Covers(q) {
			return RuleDecision{Allow: true, Label: ruleLabel("allow", r.Text)}, true
		}
	}
	return RuleDecision{}, false
}

func ruleLabel(list, text string) string {
	return "permissions." + list + " " + strconv.Quote(text)
}
