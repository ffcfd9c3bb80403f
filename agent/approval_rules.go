package agent

import (
	"context"
	"fmt"

	"github.com/agentcli/agent/tools"
)

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
// about them, as the ask policy does, instead of refusing them.
type asksInPlan interface {
	AsksInPlan() bool
}

// pending is a call being decided and what the rules have learned of it
// so far; a rule that does not decide may narrow what the later ones may
// do.
type pending struct {
	a    *Approval
	tool tools.Tool
	q    Question
	// policy is the policy for this call: the conversation's, made ask
	// where the call must be put to a person.
	policy Policy
	// ruling is the user's permission rule that decides the call, if
	// one does (ruled).
	ruling RuleDecision
	ruled  bool
	// mustAsk: a deny rule cannot judge the call (a command whose
	// program is decided when it runs), so a person is asked each time.
	mustAsk bool
	// unguarded: the tool's sandbox is off, so a person is asked each
	// time.
	unguarded bool
	// consent: the tool is never auto-approved (a commit), so a person
	// is asked each time.
	consent bool
	// hookAsk: a PreToolUse hook asks a person about the call.
	hookAsk bool
	// asking is told the question just before a person is asked it.
	asking func(Question)
}

// askAnyway reports whether no policy, allow rule or "always" answers
// for the call: a person must say yes to this one.
func (p *pending) askAnyway() bool { return p.mustAsk || p.unguarded || p.consent || p.hookAsk }

// approvalRule is one step of the decision: it decides the call (ok), or
// leaves it to the rules after it.
type approvalRule struct {
	name   string
	decide func(ctx context.Context, p *pending) (v verdict, ok bool, err error)
}

// approvalRules decide a call that writes, in order; the first that
// decides names itself in the outcome (CallResult.DecidedBy).
var approvalRules = []approvalRule{
	{"permissions.deny", denyRule},
	{"mode", modeRule},
	{"consent", consentRule},
	{"hook", hookRule},
	{"sandbox", sandboxRule},
	{"policy", policyRule},
	{"permissions.allow", allowRule},
	{"always", alwaysRule},
	{"no one to ask", noOneRule},
	{"preview", previewRule},
	{"person", personRule},
}

// decide runs the rules on q, a call of t: a call that writes, or one a
// PreToolUse hook gave a decision about (for a call that only reads, the
// rules about writes decide nothing); asking is told the question when a
// person is asked it (the loop's notification).
func (a *Approval) decide(ctx context.Context, t tools.Tool, q Question, asking func(Question)) (verdict, error) {
	p := &pending{a: a, tool: t, q: q, policy: a.Policy(), asking: asking}
	for _, r := range approvalRules {
		v, ok, err := r.decide(ctx, p)
		if err != nil {
			return verdict{}, err
		}
		if ok {
			v.by = r.name
			return v, nil
		}
	}
	panic("agent: the last approval rule always decides")
}

var allow = verdict{}

// refuse is a refusal by the rules, not by a person.
func refuse(format string, args ...any) verdict {
	res := tools.Errorf(tools.CodePolicyDenied, format, args...)
	return verdict{deny: &res, byPolicy: true}
}

// denyRule: a deny rule that covers the call refuses it, whatever the
// policy; one that cannot tell makes the call one a person must answer.
func denyRule(_ context.Context, p *pending) (verdict, bool, error) {
	if !p.q.Tool.Writes {
		return verdict{}, false, nil
	}
	p.ruling, p.ruled = p.a.Permissions.Decide(p.q)
	if !p.ruled {
		return verdict{}, false, nil
	}
	if !p.ruling.Allow && !p.ruling.Ask {
		v := refuse("%s was not run: the user's rule %s refuses it; do not try to make this change another way, tell the user what you would change instead", p.q.Tool.Name, p.ruling.Label)
		v.rule = p.ruling.Label
		return v, true, nil
	}
	p.mustAsk = p.ruling.Ask
	return verdict{}, false, nil
}

// modeRule: the never policy and plan mode refuse every write, but plan
// mode asks about a call that only reaches outside (web_fetch), as the
// ask policy does.
func modeRule(_ context.Context, p *pending) (verdict, bool, error) {
	if !p.q.Tool.Writes {
		return verdict{}, false, nil
	}
	if t, ok := p.tool.(asksInPlan); ok && p.policy == PolicyPlan && t.AsksInPlan() {
		p.policy = PolicyAsk
	}
	switch p.policy {
	case PolicyNever:
		return refuse("%s was not run: the approval policy allows no writes in this conversation; tell the user what you would change instead", p.q.Tool.Name), true, nil
	case PolicyPlan:
		return refuse("%s was not run: plan mode is on and nothing may be changed; read what you need and describe your plan, the user will switch modes to let you carry it out", p.q.Tool.Name), true, nil
	}
	return verdict{}, false, nil
}

// consentRule: a tool never auto-approved (tools.Definition
// NeverAutoApproved: git_commit) puts every call to a person, whatever the
// policy, an allow rule or an earlier "always" says; with no one to ask
// it is refused, and --yes does not change that.
func consentRule(_ context.Context, p *pending) (verdict, bool, error) {
	if !p.q.Tool.NeverAutoApproved {
		return verdict{}, false, nil
	}
	p.consent = true
	if p.a.Ask == nil {
		return refuse("%s was not run: it needs the user's own yes each time, and nobody is here to give it (--yes and allow rules do not count); tell the user what you would do, so that they do it or approve it in the chat", p.q.Tool.Name), true, nil
	}
	return verdict{}, false, nil
}

// hookRule: a PreToolUse hook's deny refuses the call; its ask puts the
// call to a person, whatever the policy, an allow rule or an earlier
// "always" says; its allow answers for the person, as an allow rule
// does: never past a deny rule (decided before), nor for a command a
// rule cannot judge, a tool only a person's yes runs, or a tool whose
// sandbox is off.
func hookRule(_ context.Context, p *pending) (verdict, bool, error) {
	h, name := p.q.Hook, p.q.Tool.Name
	switch h.Decision {
	case "deny":
		return refuse("%s was not run: the hook %s refused it: %s", name, h.By, h.Reason), true, nil
	case "ask":
		if p.a.Ask == nil {
			return refuse("%s was not run: the hook %s asks a person about it, and there is no one to ask (--yes does not answer for them); tell the user what you would do", name, h.By), true, nil
		}
		p.hookAsk = true
		if p.policy == PolicyAuto {
			p.policy = PolicyAsk
		}
	case "allow":
		s, ok := p.tool.(sandboxed)
		if !p.askAnyway() && (!ok || s.Sandboxed()) {
			return verdict{rule: "hook " + h.By}, true, nil
		}
	}
	return verdict{}, false, nil
}

// sandboxRule: a call of a tool whose sandbox is off is put to a person;
// otherwise the tool's own allowances from the user's configuration
// (shell.allow, web.allow_hosts) let a call run unasked.
func sandboxRule(_ context.Context, p *pending) (verdict, bool, error) {
	if s, ok := p.tool.(sandboxed); ok && !s.Sandboxed() {
		p.unguarded = true
	}
	if p.askAnyway() {
		if p.policy == PolicyAuto {
			p.policy = PolicyAsk
		}
		return verdict{}, false, nil
	}
	if aa, ok := p.tool.(autoAllower); ok && aa.Allowed(p.q.Input) {
		return allow, true, nil
	}
	return verdict{}, false, nil
}

// policyRule: the auto policy allows the call.
func policyRule(_ context.Context, p *pending) (verdict, bool, error) {
	return allow, p.policy == PolicyAuto, nil
}

// allowRule: the user's allow rule answers for them; an unsandboxed
// command is asked about all the same.
func allowRule(_ context.Context, p *pending) (verdict, bool, error) {
	if p.ruled && p.ruling.Allow && !p.unguarded && !p.consent && !p.hookAsk {
		return verdict{rule: p.ruling.Label}, true, nil
	}
	return verdict{}, false, nil
}

// alwaysRule: a write nobody is asked about (creating a note: nothing is
// lost by it), and a call of a scope a person allowed always.
func alwaysRule(_ context.Context, p *pending) (verdict, bool, error) {
	if p.mustAsk || p.consent || p.hookAsk {
		return verdict{}, false, nil
	}
	return allow, p.q.Tool.AutoApproved || !p.unguarded && p.a.allowedAlways(p.q.Scope()), nil
}

// noOneToAsk: with nobody to ask, what needs a person is refused, saying
// what the user can do about it.
func noOneRule(_ context.Context, p *pending) (verdict, bool, error) {
	if p.a.Ask != nil {
		return verdict{}, false, nil
	}
	name := p.q.Tool.Name
	if p.mustAsk {
		v := refuse("%s was not run: %s, so the user's rule %s cannot judge it and a person must approve it, but there is no one to ask; write the command so that its programs and words can be read without running it, or tell the user what you would run", name, p.ruling.Reason, p.ruling.Label)
		v.rule = p.ruling.Label
		return v, true, nil
	}
	msg := fmt.Sprintf("%s was not run: it needs a person's approval and there is no one to ask", name)
	if p.a.NoOneToAsk != "" {
		msg += "; " + p.a.NoOneToAsk
	}
	return refuse("%s", msg), true, nil
}

// previewRule: a tool that previews is asked for its preview before
// anyone is asked, so a call that would fail is answered with its error
// and nobody is bothered about it; the preview may name a narrower scope
// a person allowed always (a command prefix, an MCP server).
func previewRule(ctx context.Context, p *pending) (verdict, bool, error) {
	p.q.Preview.Summary = p.q.Tool.Name
	pv, ok := p.tool.(tools.Previewer)
	if !ok {
		return verdict{}, false, nil
	}
	prev, bad, err := pv.Preview(ctx, p.q.Input)
	if err != nil {
		return verdict{}, false, fmt.Errorf("preview %s: %w", p.q.Tool.Name, err)
	}
	if bad != nil {
		return verdict{deny: bad, byPolicy: true}, true, nil
	}
	p.q.Preview = prev
	if p.q.Preview.Summary == "" {
		p.q.Preview.Summary = p.q.Tool.Name
	}
	return allow, !p.askAnyway() && p.a.allowedAlways(p.q.Scope()), nil
}

// personRule asks a person, and records an "always" answer.
func personRule(ctx context.Context, p *pending) (verdict, bool, error) {
	q, name := p.q, p.q.Tool.Name
	if p.mustAsk {
		why := fmt.Sprintf("asked because %s: the rule %s cannot tell whether it covers this", p.ruling.Reason, p.ruling.Label)
		q.Preview.Lines = append([]string{why}, q.Preview.Lines...)
		q.Preview.ScopeLabel = "not remembered: a command like this is asked about each time"
	}
	if p.consent {
		q.Preview.ScopeLabel = "not remembered: every " + name + " call is asked about"
	}
	q.Preview.Lines = append(hookLines(q.Hook), q.Preview.Lines...)
	if p.hookAsk {
		q.Preview.ScopeLabel = "not remembered: the hook " + q.Hook.By + " asks about each call"
	}
	if p.asking != nil {
		p.asking(q)
	}
	ans, err := p.a.Ask.Ask(ctx, q)
	if err != nil {
		return verdict{}, false, fmt.Errorf("ask approval for %s: %w", name, err)
	}
	switch ans.Decision {
	case AllowAlways:
		if !p.askAnyway() {
			p.a.allowAlways(q.Scope())
		}
		return allow, true, nil
	case Allow:
		return allow, true, nil
	}
	msg := fmt.Sprintf("the user declined this %s call", name)
	if ans.Reason != "" {
		msg += fmt.Sprintf("; their reason: %q. Take it into account and go on", ans.Reason)
	} else {
		msg += "; do not send it again unchanged: ask the user what they would like instead, or go on without it"
	}
	res := tools.Errorf(tools.CodePolicyDenied, "%s", msg)
	return verdict{deny: &res}, true, nil
}

// hookLines are what the person asked about a call is told of its hooks:
// one asked, one changed its input.
func hookLines(h HookVerdict) []string {
	var lines []string
	if h.Decision == "ask" {
		why := "asked because the hook " + h.By + " asks"
		if h.Reason != "" {
			why += ": " + h.Reason
		}
		lines = append(lines, why)
	}
	if h.Changed != "" {
		lines = append(lines, "the input shown is the hook "+h.Changed+"'s: it changed what the model sent")
	}
	return lines
}
