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
			e.agent.Approval = Approval{Policy: tc.policy, Ask: tc.ask, Permissions: tc.perms}
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
