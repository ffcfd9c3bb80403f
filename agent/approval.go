package agent

import (
	"context"
	"fmt"

	"github.com/agentcli/agent/agent/xmlcall"
	"github.com/agentcli/agent/tools"
)

// Policy says how calls that write are approved.
type Policy string

// The approval policies. Read-only calls never need approval.
const (
	// PolicyAsk asks the user for each write; with no one to ask (no
	// terminal) the write is denied.
	PolicyAsk Policy = "ask"
	// PolicyAuto allows every write (--yes).
	PolicyAuto Policy = "auto"
	// PolicyNever denies every write.
	PolicyNever Policy = "never"
)

// ParsePolicy returns the policy called s.
func ParsePolicy(s string) (Policy, error) {
	switch p := Policy(s); p {
	case PolicyAsk, PolicyAuto, PolicyNever:
		return p, nil
	}
	return "", fmt.Errorf("unknown approval policy %q: use ask, auto or never", s)
}

// Decision is the user's answer to an approval request.
type Decision int

// The answers a user can give.
const (
	Deny     Decision = iota
	Allow             // this call only
	AllowAll          // this call and every later write of the run
)

// ApprovalRequest is a write waiting for approval.
type ApprovalRequest struct {
	Call  xmlcall.Call
	Tool  tools.Definition
	Input tools.Input // the validated parameters
}

// Asker asks the user about one write. It is nil when there is no one to
// ask (no terminal). An error ends the run (the user interrupted).
type Asker func(ctx context.Context, req ApprovalRequest) (Decision, error)

// Approval is the approval hook of the loop.
type Approval struct {
	Policy Policy // PolicyAsk when empty
	Ask    Asker
}

// approver holds the approval state of one run: AllowAll lasts until the
// run ends.
type approver struct {
	Approval
	all bool
}

// decide returns nil when req may run, or the TOOL_POLICY_DENIED result to
// answer instead.
func (a *approver) decide(ctx context.Context, req ApprovalRequest) (*tools.Result, error) {
	name := req.Tool.Name
	switch a.Policy {
	case PolicyAuto:
		return nil, nil
	case PolicyNever:
		res := tools.Errorf(tools.CodePolicyDenied, "%s was not run: the approval policy forbids all writes in this run; tell the user what you would change, or ask them to rerun with --yes", name)
		return &res, nil
	}
	if a.all {
		return nil, nil
	}
	if a.Ask == nil {
		res := tools.Errorf(tools.CodePolicyDenied, "%s was not run: writes need approval and there is no terminal to ask; tell the user to rerun the command with --yes to allow writes", name)
		return &res, nil
	}
	d, err := a.Ask(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("ask approval for %s: %w", name, err)
	}
	switch d {
	case AllowAll:
		a.all = true
		return nil, nil
	case Allow:
		return nil, nil
	}
	res := tools.Errorf(tools.CodePolicyDenied, "the user declined this %s call; do not retry it, ask the user what they would like instead", name)
	return &res, nil
}
