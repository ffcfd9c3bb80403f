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
	// Unsure, when set on a deny rule, says why the rule cannot tell
	// whether it covers a call it does not cover for sure (a command
	// whose program is decided when it runs); "" when it can tell.
	Unsure func(q Question) string
}

// RuleDecision is what a permission rule decided about a call.
type RuleDecision struct {
	Allow bool
	// Ask is set when a deny rule cannot tell whether it covers the
	// call: a person must be asked, whatever the policy, allow rules or
	// earlier "always" answers say, and with no one to ask the call is
	// refused.
	Ask bool
	// Reason says why a person must be asked ("the program is decided
	// at run time: $(echo git)").
	Reason string
	// Label names the rule for people and logs:
	// `permissions.allow "docs/**"`.
	Label string
}

// Decide returns the rule that decides q: a deny rule that covers it,
// else a deny rule unsure of it (Ask), else an allow rule; ok is false
// when no rule decides.
func (p Permissions) Decide(q Question) (d RuleDecision, ok bool) {
	for _, r := range p.Deny {
		if r.Covers != nil && r.Covers(q) {
			return RuleDecision{Label: ruleLabel("deny", r.Text)}, true
		}
	}
	for _, r := range p.Deny {
		if r.Unsure == nil {
			continue
		}
		if why := r.Unsure(q); why != "" {
			return RuleDecision{Ask: true, Reason: why, Label: ruleLabel("deny", r.Text)}, true
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
