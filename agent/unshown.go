package agent

import "github.com/agentcli/agent/tools"

// describe answers a call of a tool the system prompt only names
// (Agent.Unshown) that did not validate, the first time: its result,
// bad, gets the tool's full definition, so that the model can call it
// correctly next. A valid call of such a tool simply runs. It reports
// false for any other call.
func (a *Agent) describe(name string, bad *tools.Result) (tools.Result, bool) {
	def, ok := a.Unshown[name]
	if !ok || a.described[name] {
		return tools.Result{}, false
	}
	if a.described == nil {
		a.described = map[string]bool{}
	}
	a.described[name] = true
	res := *bad
	res.Message = bad.Message + "; your instructions only name " + name + ", so here is its definition: call it again with these parameters"
	res.Content = def
	return res, true
}
