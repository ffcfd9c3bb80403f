package agent

import (
	"context"
	"sync"
	"testing"

	"github.com/agentcli/agent/tools"
)

// allowsTool is a writing tool whose own rules allow every call, as
// run_command's shell.allow does for a matching command.
type allowsTool struct{ tools.Tool }

func (allowsTool) Allowed(tools.Input) bool { return true }

// TestDecidedByNamesTheRule: each rule of the ordered list, when it is
// the one that decides, names itself in the call's result.
func TestDecidedByNamesTheRule(t *testing.T) {
	denyAll := Permissions{Deny: []Rule{{Text: "*", Covers: func(Question) bool { return true }}}}
	allowAll := Permissions{Allow: []Rule{{Text: "*", Covers: func(Question) bool { return true }}}}
	for _, tc := range []struct {
		name  string
		setup approvalSetup
		tool  func(tools.Tool) tools.Tool
		want  string
	}{
		{"a deny rule, even under auto", approvalSetup{Policy: PolicyAuto, Permissions: denyAll}, nil, "permissions.deny"},
		{"never", approvalSetup{Policy: PolicyNever}, nil, "mode"},
		{"plan", approvalSetup{Policy: PolicyPlan}, nil, "mode"},
		{"the tool's own allowance", approvalSetup{Policy: PolicyAsk}, func(t tools.Tool) tools.Tool { return allowsTool{t} }, "sandbox"},
		{"auto", approvalSetup{Policy: PolicyAuto}, nil, "policy"},
		{"an allow rule", approvalSetup{Policy: PolicyAsk, Permissions: allowAll}, nil, "permissions.allow"},
		{"no one to ask", approvalSetup{Policy: PolicyAsk}, nil, "no one to ask"},
		{"a person", approvalSetup{Policy: PolicyAsk, Ask: answer(Allow)}, nil, "person"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, texts(writeOut, "ok")...)
			if tc.tool != nil {
				reg := tools.NewRegistry()
				for _, tool := range e.tools.registry().Tools() {
					if tool.Definition().Writes {
						tool = tc.tool(tool)
					}
					reg.Add(tool)
				}
				e.agent.Tools = reg
			}
			e.agent.Approval = tc.setup.approval()
			if _, err := e.run("write"); err != nil {
				t.Fatal(err)
			}
			if rs := e.results(); len(rs) != 1 || rs[0].DecidedBy != tc.want {
				t.Errorf("results = %+v, want the write decided by %q", rs, tc.want)
			}
		})
	}
}

// TestAlwaysIsForgottenFromItsTurn: an "always" answer belongs to the
// turn it was given in; forgetting from a later turn keeps it, from its
// own turn drops it, and the next call is asked about again.
func TestAlwaysIsForgottenFromItsTurn(t *testing.T) {
	write := func(name string) string {
		return `<tool_call name="write_file"><operation_type>create</operation_type><file_path>` + name + `</file_path><content>x</content></tool_call>`
	}
	e := newEnv(t, texts(write("a.md"), "ok", write("b.md"), "ok", write("c.md"), "ok")...)
	asked := 0
	e.agent.Approval = approvalSetup{Policy: PolicyAsk, Ask: AskFunc(func(context.Context, Question) (Answer, error) {
		asked++
		return Answer{Decision: AllowAlways}, nil
	})}.approval()
	e.agent.Approval.SetTurn(2)
	if _, err := e.run("first"); err != nil {
		t.Fatal(err)
	}
	e.agent.Approval.ForgetAlways(3) // a rewind to before a later turn
	if _, err := e.run("second"); err != nil {
		t.Fatal(err)
	}
	if asked != 1 || e.results()[1].DecidedBy != "always" {
		t.Fatalf("asked %d times, second write %+v; want the always of turn 2 kept", asked, e.results()[1])
	}
	e.agent.Approval.ForgetAlways(2) // a rewind to before the turn that gave it
	if _, err := e.run("third"); err != nil {
		t.Fatal(err)
	}
	if asked != 2 {
		t.Errorf("asked %d times; want the write asked about again once its always was forgotten", asked)
	}
}

// TestSetPolicyWhileARunGoes changes the policy from another goroutine
// while the loop decides calls; the race detector checks that it is
// safe, and the policy set last is the one in force.
func TestSetPolicyWhileARunGoes(t *testing.T) {
	var replies []string
	for range 20 {
		replies = append(replies, `<tool_call name="read_file"><file_path>a.md</file_path></tool_call>`+writeOut)
	}
	e := newEnv(t, texts(append(replies, "ok")...)...)
	e.agent.MaxIterations = 30
	e.agent.Approval = NewApproval(PolicyNever)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			e.agent.Approval.SetPolicy([]Policy{PolicyNever, PolicyPlan}[i%2])
		}
	}()
	_, err := e.run("go")
	close(stop)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	e.agent.Approval.SetPolicy(PolicyAuto)
	if got := e.agent.Approval.Policy(); got != PolicyAuto {
		t.Errorf("policy = %s, want auto", got)
	}
}

// consentTool is a write only a person's yes may run, as git_commit is
// without git.auto_commit.
type consentTool struct{ tools.Tool }

func (c consentTool) Definition() tools.Definition {
	d := c.Tool.Definition()
	d.NeverAutoApproved = true
	return d
}

// TestNeverAutoApproved: a tool never auto-approved runs only on a
// person's yes to each call: auto (--yes), an allow rule and an
// "always" answer do not run it, nobody to ask refuses it, and a deny
// rule or plan mode still refuse it first.
func TestNeverAutoApproved(t *testing.T) {
	denyAll := Permissions{Deny: []Rule{{Text: "*", Covers: func(Question) bool { return true }}}}
	allowAll := Permissions{Allow: []Rule{{Text: "*", Covers: func(Question) bool { return true }}}}
	for _, tc := range []struct {
		name  string
		setup approvalSetup
		want  string // DecidedBy of both writes
		asked int
		ran   bool
	}{
		{"--yes alone", approvalSetup{Policy: PolicyAuto, Permissions: allowAll, NoOneToAsk: "rerun with --yes"}, "consent", 0, false},
		{"auto, an allow rule and always, a person there", approvalSetup{Policy: PolicyAuto, Permissions: allowAll}, "person", 2, true},
		{"a deny rule", approvalSetup{Policy: PolicyAuto, Permissions: denyAll}, "permissions.deny", 0, false},
		{"plan", approvalSetup{Policy: PolicyPlan}, "mode", 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			write := func(name string) string {
				return `<tool_call name="write_file"><operation_type>create</operation_type><file_path>` + name + `</file_path><content>x</content></tool_call>`
			}
			e := newEnv(t, texts(write("a.md"), write("b.md"), "ok")...)
			reg := tools.NewRegistry()
			for _, tool := range e.tools.registry().Tools() {
				if tool.Definition().Writes {
					tool = consentTool{tool}
				}
				reg.Add(tool)
			}
			e.agent.Tools = reg
			asked := 0
			if tc.want == "person" {
				tc.setup.Ask = AskFunc(func(_ context.Context, q Question) (Answer, error) {
					asked++
					if q.Preview.ScopeLabel == "" {
						t.Error("the question offers to remember the answer")
					}
					return Answer{Decision: AllowAlways}, nil
				})
			}
			e.agent.Approval = tc.setup.approval()
			if _, err := e.run("write"); err != nil {
				t.Fatal(err)
			}
			rs := e.results()
			if len(rs) != 2 || rs[0].DecidedBy != tc.want || rs[1].DecidedBy != tc.want {
				t.Fatalf("results = %+v, want both decided by %q", rs, tc.want)
			}
			if ran := !rs[1].Result.IsError(); ran != tc.ran || asked != tc.asked {
				t.Errorf("ran %v, asked %d times; want %v and %d (%s)", ran, asked, tc.ran, tc.asked, rs[1].Result.Message)
			}
			if tc.want == "consent" && (!rs[0].ByPolicy || rs[0].Result.Code != tools.CodePolicyDenied) {
				t.Errorf("refusal = %+v", rs[0])
			}
		})
	}
}
