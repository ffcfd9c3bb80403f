package editor

import (
	acp "github.com/coder/acp-go-sdk"

	"github.com/agentcli/agent/agent"
)

// mode is one of the session modes an editor offers: an approval policy.
type mode struct {
	policy      agent.Policy
	name, about string
}

// modes are the session modes, the chat's Shift+Tab policies.
var modes = []mode{
	{agent.PolicyAsk, "Ask", "ask before each change and command"},
	{agent.PolicyAuto, "Auto", "make changes and run commands without asking"},
	{agent.PolicyPlan, "Plan", "change nothing: read, then describe a plan"},
}

// modeState is the modes of a session whose policy is p. A policy that
// is no mode (the configuration's never) is listed as the current one.
func modeState(p agent.Policy) *acp.SessionModeState {
	st := &acp.SessionModeState{CurrentModeId: acp.SessionModeId(p)}
	known := false
	for _, m := range modes {
		st.AvailableModes = append(st.AvailableModes, acp.SessionMode{Id: acp.SessionModeId(m.policy), Name: m.name, Description: acp.Ptr(m.about)})
		known = known || m.policy == p
	}
	if !known {
		st.AvailableModes = append(st.AvailableModes, acp.SessionMode{Id: acp.SessionModeId(p), Name: string(p), Description: acp.Ptr("as configured: refuse every change")})
	}
	return st
}

// modePolicy is the policy of mode id.
func modePolicy(id acp.SessionModeId) (agent.Policy, bool) {
	for _, m := range modes {
		if acp.SessionModeId(m.policy) == id {
			return m.policy, true
		}
	}
	return "", false
}
