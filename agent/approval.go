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
	// Agent names the sub-agent whose call it is ("reviewer"); "" for
	// the conversation's own model.
	Agent string
	// Hook is what the PreToolUse hooks said of the call.
	Hook HookVerdict
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

// Approval decides about the calls that write, for one conversation. It
// owns the approval state: the policy, which a person may change at any
// time (the chat's Shift+Tab), even while a run goes on, and the scopes a
// person allowed "always", each recorded with the turn it was given in so
// that a rewind to before that turn forgets it. The decision is an
// ordered list of named rules (approval_rules.go); the first that decides
// names itself in the outcome.
//
// Build it with NewApproval and set Ask, NoOneToAsk and Permissions
// before the first run; the Conversation owns one and gives it to its
// Agent.
type Approval struct {
	// Ask asks a person; nil when there is no one to ask (no terminal).
	Ask Asker
	// NoOneToAsk is added to the model's refusal when a write needs
	// approval and Ask is nil: what the user can do about it, in the
	// words of the interface ("tell the user to rerun with --yes").
	NoOneToAsk string
	// Permissions are the user's standing rules (permissions.go),
	// checked before the policy: a deny rule refuses even under auto.
	Permissions Permissions

	mu     sync.Mutex
	policy Policy
	// always maps each scope a person allowed always to the turn it was
	// allowed in.
	always map[string]int
	turn   int
}

// NewApproval returns the approval of a conversation that starts with
// policy p (PolicyAsk when empty).
func NewApproval(p Policy) *Approval {
	a := &Approval{}
	a.SetPolicy(p)
	return a
}

// SetPolicy changes the policy for the rest of the conversation. It is
// safe to call while a run is in progress: the next call that needs
// approval is decided under p.
func (a *Approval) SetPolicy(p Policy) {
	if p == "" {
		p = PolicyAsk
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.policy = p
}

// Policy returns the policy in force.
func (a *Approval) Policy() Policy {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.policy == "" {
		return PolicyAsk
	}
	return a.policy
}

// SetTurn says which turn of the conversation the calls decided from now
// on belong to: an "always" answer is recorded with it.
func (a *Approval) SetTurn(n int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.turn = n
}

// ForgetAlways forgets the "always" answers given in turn n or later; 0
// forgets them all (a new or resumed conversation, which never gave
// them).
func (a *Approval) ForgetAlways(n int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for scope, turn := range a.always {
		if turn >= n {
			delete(a.always, scope)
		}
	}
}

func (a *Approval) allowedAlways(scope string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	_, ok := a.always[scope]
	return ok
}

func (a *Approval) allowAlways(scope string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.always == nil {
		a.always = map[string]int{}
	}
	if _, ok := a.always[scope]; !ok {
		a.always[scope] = a.turn
	}
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
	// rule labels the user's permission rule that decided, if one did.
	rule string
	// by names the approval rule that decided (approvalRules).
	by string
}
