package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/agentcli/agent/tools"
)

// planAsked is a tool that changes nothing but needs a yes, as web_fetch.
type planAsked struct{ tools.Tool }

func (planAsked) AsksInPlan() bool { return true }

// TestPlanModeAsksAboutFetches: plan mode refuses writes, but asks about
// a call that only reaches outside (web_fetch) as the ask policy does.
func TestPlanModeAsksAboutFetches(t *testing.T) {
	const call = `<tool_call name="fetch" id="f"><url>https://example.com/</url></tool_call>`
	for _, tc := range []struct {
		name    string
		ask     Asker
		ran     bool
		message string
	}{
		{"allowed", answer(Allow), true, ""},
		{"declined", answer(Deny), false, "declined"},
		{"no one to ask", nil, false, "no one to ask"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, texts(call+writeOut, "ok")...)
			fetched := 0
			fetch := planAsked{tools.New("fetch", "Fetch a page.", func(context.Context, struct {
				URL string `json:"url"`
			}) (tools.Result, error) {
				fetched++
				return tools.Result{Message: "fetched"}, nil
			}, tools.Writes())}
			reg := e.tools.registry()
			reg.Add(fetch)
			e.agent.Tools = reg
			asked := 0
			if tc.ask != nil {
				e.agent.Approval.Ask = AskFunc(func(ctx context.Context, q Question) (Answer, error) {
					asked++
					return tc.ask.Ask(ctx, q)
				})
			}
			e.agent.Approval.SetPolicy(PolicyPlan)
			if _, err := e.run("look it up"); err != nil {
				t.Fatal(err)
			}
			rs := e.results()
			if len(rs) != 2 {
				t.Fatalf("results = %+v, want two", rs)
			}
			if (fetched == 1) != tc.ran || !strings.Contains(rs[0].Result.Message, tc.message) {
				t.Errorf("fetch ran %d times, result %+v; want ran=%v mentioning %q", fetched, rs[0].Result, tc.ran, tc.message)
			}
			if tc.ask != nil && asked != 1 {
				t.Errorf("asked %d times, want once (the fetch; the write is refused by plan mode)", asked)
			}
			if rs[1].Result.Code == "" || e.exists("out.md") {
				t.Errorf("write in plan mode = %+v, want it refused", rs[1].Result)
			}
		})
	}
}
