package agent

import "github.com/agentcli/agent/tools"

// concurrent is a tool some of whose calls may run at the same time as
// other such calls of the same reply: the task tool, for a sub-agent
// whose tools only read. Such a call writes nothing, so no person is
// asked and no order between them matters.
type concurrent interface {
	Concurrent(in tools.Input) bool
}

// together is how many of the items, from the first, run at the same
// time: the calls in a row that may (concurrent), up to MaxParallel; 1
// for any other item, which runs alone.
func (b *batch) together(items []item) int {
	n := 0
	for n < len(items) && n < b.a.MaxParallel && b.mayOverlap(items[n]) {
		n++
	}
	return max(n, 1)
}

// mayOverlap reports a valid call of a tool that is not a write and says
// this call may run beside others.
func (b *batch) mayOverlap(it item) bool {
	if it.err != nil {
		return false
	}
	t, in, bad := b.a.Tools.Validate(it.call.Name, it.call.Args())
	if bad != nil || t.Definition().Writes {
		return false
	}
	c, ok := t.(concurrent)
	return ok && c.Concurrent(in)
}
