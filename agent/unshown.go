package agent

import "github.com/agentcli/agent/tools"

// describe answers the first call of a tool the system prompt only names
// (Agent.Unshown): the call is not run, and its result carries the
// tool's full definition, so that the model can call it correctly next.
// It reports false for any other call, which runs as usual.
func (a *Agent) describe(name string) (tools.Result, bool) {
	def, ok := a.Unshown[name]
	if !ok || a.described[name] {
		return tools.Result{}, false
	}
	if a.described == nil {
		a.described = map[string]bool{}
	}
	a.described[name] = true
	res := tools.Errorf(tools.CodeToolUnknown, "%s was not run: your instructions only name it, so here is its definition; call it again with these parameters", name)
	res.Content = def
	return res, true
}
