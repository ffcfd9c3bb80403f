package agent

import (
	"context"
	"fmt"
	"sync"

	"github.com/agentcli/agent/agent/xmlcall"
	"github.com/agentcli/agent/tools"
)

// Policy says how calls that write are approved.
type Policy string

// The approval policies. Read-only calls never need approval.
const (
	// PolicyAsk asks a person about each write; with no one to ask the
	// write is denied.
	PolicyAsk Policy = "ask"
	// PolicyAuto allows every write.
	PolicyAuto Policy = "auto"
	// PolicyNever denies every write.
	PolicyNever Policy = "never"
	// PolicyPlan denies every write and tells the model to plan instead:
	// the chat's read-only mode.
	PolicyPlan Policy = "plan"
)

// ParsePolicy returns the policy called s. Plan is a mode of the chat,
// not a setting, so it is not accepted here.
func ParsePolicy(s string) (Policy, error) {
	switch p := Policy(s); p {
	case PolicyAsk, PolicyAuto, PolicyNever:
		return p, nil
	}
	return "", fmt.Errorf("unknown approval policy %q: use ask, auto or never", s)
}

// Decision is a person's answer to a Question.
type Decision int

// The answers a person can give.
const (
	Deny  Decision = iota
	Allow          // this call only
	// AllowAlways allows this call and, for the rest of the
	// conversation, every call of the same scope: the tool, or the
	// narrower Preview.Scope when the tool sets one (an MCP server, a
	// command prefix).
	AllowAlways
)

// Question is an action waiting for a person's approval: a write, a note
// change, a command, an imported tool's call.
type Question struct {
	Call  xmlcall.Call
	Tool  tools.Definition
	Input tools.Input // the validated parameters
	// Preview says what the call would change. Summary is always set;
	// Diff and Lines when the tool can preview.
	Preview tools.Preview
}

// Scope is the key an AllowAlways answer to q records.
func (q Question) Scope() string {
	if q.Preview.Scope != "" {
		return q.Preview.Scope
	}
	return q.Tool.Name
}

// Answer is a person's reply to a Question.
type Answer struct {
	Decision Decision
	// Reason is what the person said with a Deny; it goes back to the
	// model with the refusal.
	Reason string
}

// Asker asks a person about one action. The terminal question of `agent
// run` and the chat's dialog implement it. An error ends the run (the
// person interrupted); cancelling ctx must end Ask at once.
type Asker interface {
	Ask(ctx context.Context, q Question) (Answer, error)
}

// AskFunc adapts a function to Asker.
type AskFunc func(ctx context.Context, q Question) (Answer, error)

// Ask calls f.
func (f AskFunc) Ask(ctx context.Context, q Question) (Answer, error) { return f(ctx, q) }

// Approval is the approval hook of the loop.
type Approval struct {
	Policy Policy // PolicyAsk when empty
	// Ask asks a person; nil when there is no one to ask (no terminal).
	Ask Asker
	// NoOneToAsk is added to the model's refusal when a write needs
	// approval and Ask is nil: what the user can do about it, in the
	// words of the interface ("tell the user to rerun with --yes").
	NoOneToAsk string
	// Permissions are the user's standing rules (permissions.go),
	// checked before the policy: a deny rule refuses even under auto.
	Permissions Permissions
}

// approver holds the approval state of one conversation: the policy,
// which can change between turns, and the scopes a person allowed
// always. It lasts as long as the Agent, so "always" covers the whole
// conversation and is not carried over when it is resumed.
type approver struct {
	mu     sync.Mutex
	policy Policy
	always map[string]bool
}

func (a *approver) setPolicy(p Policy) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.policy = p
}

func (a *approver) current() Policy {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.policy
}

func (a *approver) allowedAlways(scope string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.always[scope]
}

func (a *approver) allowAlways(scope string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.always == nil {
		a.always = map[string]bool{}
	}
	a.always[scope] = true
}

// verdict is the approval's outcome for one call.
type verdict struct {
	// deny is the result to answer instead of running the call
	// (TOOL_POLICY_DENIED, or the error the call's preview found); nil
	// means run it.
	deny *tools.Result
	// byPolicy is true when the refusal did not come from a person (the
	// policy: no one to ask, never, plan; or a preview that found the
	// call would fail): such a refusal counts as a failure for the
	// TOOL_SKIPPED rule, a person's "no" does not (protocol.md §4).
	byPolicy bool
	// rule labels the permission rule that decided, if one did.
	rule string
}

// autoAllower is a tool whose own rules (from the user's configuration)
// allow some calls without asking, such as commands matching the user's
// allowed prefixes.
type autoAllower interface {
	Allowed(in tools.Input) bool
}

// sandboxed is a tool that runs something under a sandbox; when the
// sandbox is off, every call is asked about, whatever the policy or an
// earlier "always" says.
type sandboxed interface {
	Sandboxed() bool
}

// asksInPlan is a tool whose calls change nothing but still need a
// person's yes (web_fetch reaches outside the machine): plan mode asks
// about them, as the ask policy does, instead of refusing them. (A rule
// of its own, to move with the others into the ordered approval rules.)
type asksInPlan interface {
	AsksInPlan() bool
}

// decide asks about q under the current policy. A tool that previews is
// asked for its preview before anyone is asked: a call that would fail is
// answered with its error and nobody is bothered about it.
func (a *Agent) decide(ctx context.Context, t tools.Tool, q Question) (verdict, error) {
	name := q.Tool.Name
	policy := a.approver.current()
	if p, ok := t.(asksInPlan); ok && policy == PolicyPlan && p.AsksInPlan() {
		policy = PolicyAsk
	}
	unguarded := false
	if s, ok := t.(sandboxed); ok && !s.Sandboxed() {
		unguarded = true
	}
	rule, ruled := a.Approval.Permissions.Decide(q)
	if ruled && !rule.Allow && !rule.Ask {
		res := tools.Errorf(tools.CodePolicyDenied, "%s was not run: the user's rule %s refuses it; do not try to make this change another way, tell the user what you would change instead", name, rule.Label)
		return verdict{deny: &res, byPolicy: true, rule: rule.Label}, nil
	}
	// A call a deny rule cannot judge, like an unsandboxed command, is
	// put to a person each time: no policy, allow rule or "always"
	// answers for them.
	mustAsk := ruled && rule.Ask
	askAnyway := unguarded || mustAsk
	if aa, ok := t.(autoAllower); ok && !askAnyway && policy != PolicyNever && policy != PolicyPlan && aa.Allowed(q.Input) {
		return verdict{}, nil
	}
	if askAnyway && policy == PolicyAuto {
		policy = PolicyAsk
	}
	switch policy {
	case PolicyAuto:
		return verdict{}, nil
	case PolicyNever:
		res := tools.Errorf(tools.CodePolicyDenied, "%s was not run: the approval policy allows no writes in this conversation; tell the user what you would change instead", name)
		return verdict{deny: &res, byPolicy: true}, nil
	case PolicyPlan:
		res := tools.Errorf(tools.CodePolicyDenied, "%s was not run: plan mode is on and nothing may be changed; read what you need and describe your plan, the user will switch modes to let you carry it out", name)
		return verdict{deny: &res, byPolicy: true}, nil
	}
	if ruled && rule.Allow && !unguarded {
		// The user's allow rule answers for them; an unsandboxed
		// command is asked about all the same.
		return verdict{rule: rule.Label}, nil
	}
	if !mustAsk && (q.Tool.AutoApproved || !unguarded && a.approver.allowedAlways(q.Scope())) {
		// Some writes are never asked about (creating a note: nothing
		// is lost by it), though they still count as writes.
		return verdict{}, nil
	}
	if a.Approval.Ask == nil && mustAsk {
		res := tools.Errorf(tools.CodePolicyDenied, "%s was not run: %s, so the user's rule %s cannot judge it and a person must approve it, but there is no one to ask; write the command so that its programs and words can be read without running it, or tell the user what you would run", name, rule.Reason, rule.Label)
		return verdict{deny: &res, byPolicy: true, rule: rule.Label}, nil
	}
	if a.Approval.Ask == nil {
		msg := fmt.Sprintf("%s was not run: writes need approval and there is no one to ask", name)
		if a.Approval.NoOneToAsk != "" {
			msg += "; " + a.Approval.NoOneToAsk
		}
		res := tools.Errorf(tools.CodePolicyDenied, "%s", msg)
		return verdict{deny: &res, byPolicy: true}, nil
	}
	q.Preview.Summary = q.Tool.Name
	if pv, ok := t.(tools.Previewer); ok {
		p, bad, err := pv.Preview(ctx, q.Input)
		if err != nil {
			return verdict{}, fmt.Errorf("preview %s: %w", name, err)
		}
		if bad != nil {
			return verdict{deny: bad, byPolicy: true}, nil
		}
		q.Preview = p
		if q.Preview.Summary == "" {
			q.Preview.Summary = name
		}
		if !askAnyway && a.approver.allowedAlways(q.Scope()) {
			return verdict{}, nil
		}
	}
	if mustAsk {
		why := fmt.Sprintf("asked because %s: the rule %s cannot tell whether it covers this", rule.Reason, rule.Label)
		q.Preview.Lines = append([]string{why}, q.Preview.Lines...)
		q.Preview.ScopeLabel = "not remembered: a command like this is asked about each time"
	}
	ans, err := a.Approval.Ask.Ask(ctx, q)
	if err != nil {
		return verdict{}, fmt.Errorf("ask approval for %s: %w", name, err)
	}
	switch ans.Decision {
	case AllowAlways:
		if !askAnyway {
			a.approver.allowAlways(q.Scope())
		}
		return verdict{}, nil
	case Allow:
		return verdict{}, nil
	}
	msg := fmt.Sprintf("the user declined this %s call", name)
	if ans.Reason != "" {
		msg += fmt.Sprintf("; their reason: %q. Take it into account and go on", ans.Reason)
	} else {
		msg += "; do not send it again unchanged: ask the user what they would like instead, or go on without it"
	}
	res := tools.Errorf(tools.CodePolicyDenied, "%s", msg)
	return verdict{deny: &res}, nil
}
