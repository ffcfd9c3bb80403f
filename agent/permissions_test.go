package agent

import (
	"context"
	"encoding/json"
	"path"
	"strings"
	"testing"

	"github.com/agentcli/agent/tools"
)

// pathRule covers write_file calls whose file_path matches the glob (the
// shell pattern of package path; cmd/agent uses the file tools' own).
func pathRule(glob string) Rule {
	return Rule{Text: glob, Covers: func(q Question) bool {
		p, _ := q.Input.Values["file_path"].(string)
		ok, _ := path.Match(glob, p)
		return q.Tool.Name == "write_file" && ok
	}}
}

func TestPermissionRules(t *testing.T) {
	asked := func(ctx context.Context, q Question) (Answer, error) {
		t.Errorf("asked about %s although a rule decided", q.Tool.Name)
		return Answer{Decision: Deny}, nil
	}
	for _, tc := range []struct {
		name   string
		policy Policy
		ask    Asker
		perms  Permissions
		code   string
		rule   string // the label on the result
		msg    string // in the message
	}{
		{"allow without anyone to ask", PolicyAsk, nil, Permissions{Allow: []Rule{pathRule("*.md")}}, "", `permissions.allow "*.md"`, ""},
		{"allow saves the question", PolicyAsk, AskFunc(asked), Permissions{Allow: []Rule{pathRule("*.md")}}, "", `permissions.allow "*.md"`, ""},
		{"deny beats auto", PolicyAuto, nil, Permissions{Deny: []Rule{pathRule("out.*")}}, tools.CodePolicyDenied, `permissions.deny "out.*"`, `rule permissions.deny "out.*" refuses it`},
		{"deny beats allow", PolicyAsk, AskFunc(asked), Permissions{Allow: []Rule{pathRule("*.md")}, Deny: []Rule{pathRule("out.md")}}, tools.CodePolicyDenied, `permissions.deny "out.md"`, "refuses it"},
		{"never beats allow", PolicyNever, nil, Permissions{Allow: []Rule{pathRule("*.md")}}, tools.CodePolicyDenied, "", "allows no writes"},
		{"a rule that does not match", PolicyAsk, nil, Permissions{Allow: []Rule{pathRule("docs/*")}}, tools.CodePolicyDenied, "", "no one to ask"},
		{"auto needs no rule", PolicyAuto, nil, Permissions{Allow: []Rule{pathRule("*.md")}}, "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, texts(writeOut, "ok")...)
			e.agent.Approval = approvalSetup{Policy: tc.policy, Ask: tc.ask, Permissions: tc.perms}.approval()
			if _, err := e.run("write"); err != nil {
				t.Fatal(err)
			}
			rs := e.results()
			if len(rs) != 1 {
				t.Fatalf("results = %+v", rs)
			}
			r := rs[0]
			if r.Result.Code != tc.code || r.Rule != tc.rule || !strings.Contains(r.Result.Message, tc.msg) {
				t.Fatalf("result code %q rule %q message %q; want %q %q mentioning %q", r.Result.Code, r.Rule, r.Result.Message, tc.code, tc.rule, tc.msg)
			}
			if wrote := e.exists("out.md"); wrote != (tc.code == "") {
				t.Errorf("file written = %v, want %v", wrote, tc.code == "")
			}
			if tc.code != "" && tc.rule != "" && !r.ByPolicy {
				t.Errorf("a rule's refusal is not counted as the policy's")
			}
			// The rule reaches scripts: on the result and, for a
			// call it let run, on the tool_start event.
			b, _ := json.Marshal(r)
			if tc.rule != "" && !strings.Contains(string(b), `"rule":`) {
				t.Errorf("result JSON has no rule: %s", b)
			}
			for _, ev := range e.events {
				if ev.Type == EventToolStart && ev.Rule != tc.rule {
					t.Errorf("tool_start rule = %q, want %q", ev.Rule, tc.rule)
				}
			}
		})
	}
}

func TestPermissionsDecideDenyFirst(t *testing.T) {
	all := Rule{Text: "**", Covers: func(Question) bool { return true }}
	d, ok := Permissions{Allow: []Rule{all}, Deny: []Rule{all}}.Decide(Question{})
	if !ok || d.Allow || d.Label != `permissions.deny "**"` {
		t.Errorf("decision = %+v %v, want the deny rule", d, ok)
	}
	if _, ok := (Permissions{}).Decide(Question{}); ok {
		t.Errorf("no rules decided something")
	}
}

// unsureRule is a deny rule that cannot judge any write_file call, as a
// command rule cannot judge a command whose program is decided at run
// time.
var unsureRule = Rule{Text: "run_command:rm -rf", Covers: func(Question) bool { return false },
	Unsure: func(q Question) string {
		if q.Tool.Name != "write_file" {
			return ""
		}
		return "the program is decided at run time: $(echo rm)"
	}}

func TestPermissionsMustAsk(t *testing.T) {
	t.Run("no one to ask, even under auto", func(t *testing.T) {
		e := newEnv(t, texts(writeOut, "ok")...)
		e.agent.Approval = approvalSetup{Policy: PolicyAuto, Permissions: Permissions{Deny: []Rule{unsureRule}}}.approval()
		if _, err := e.run("write"); err != nil {
			t.Fatal(err)
		}
		r := e.results()[0]
		if r.Result.Code != tools.CodePolicyDenied || !r.ByPolicy || r.Rule != `permissions.deny "run_command:rm -rf"` ||
			!strings.Contains(r.Result.Message, "the program is decided at run time: $(echo rm)") || !strings.Contains(r.Result.Message, "no one to ask") {
			t.Errorf("result = %+v", r)
		}
		if e.exists("out.md") {
			t.Error("the write ran")
		}
	})
	t.Run("asked despite auto, an allow rule and always", func(t *testing.T) {
		second := `<tool_call name="write_file" id="w2"><operation_type>create</operation_type><file_path>two.md</file_path><content>y</content></tool_call>`
		e := newEnv(t, texts(writeOut, second, "ok")...)
		var asked []Question
		ask := AskFunc(func(_ context.Context, q Question) (Answer, error) {
			asked = append(asked, q)
			return Answer{Decision: AllowAlways}, nil
		})
		e.agent.Approval = approvalSetup{Policy: PolicyAuto, Ask: ask, Permissions: Permissions{
			Deny:  []Rule{unsureRule},
			Allow: []Rule{pathRule("*.md")},
		}}.approval()
		if _, err := e.run("write"); err != nil {
			t.Fatal(err)
		}
		if len(asked) != 2 {
			t.Fatalf("asked %d times, want 2 (an always answer must not carry over)", len(asked))
		}
		if l := asked[0].Preview.Lines; len(l) == 0 || !strings.Contains(l[0], "asked because the program is decided at run time: $(echo rm)") {
			t.Errorf("the question does not say why: %q", l)
		}
		if !strings.Contains(asked[0].Preview.ScopeLabel, "not remembered") {
			t.Errorf("the always answer offers %q, which it does not keep", asked[0].Preview.ScopeLabel)
		}
		if !e.exists("out.md") || !e.exists("two.md") {
			t.Error("the approved writes did not run")
		}
	})
}
