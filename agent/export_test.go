package agent

import "github.com/agentcli/agent/agent/xmlcall"

// FitResponsesForTest exposes fitResponses to the external tests.
func (b *Budget) FitResponsesForTest(rs []xmlcall.Response) []xmlcall.Response {
	return b.fitResponses(rs)
}
