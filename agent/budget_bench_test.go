package agent_test

import (
	"strings"
	"testing"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/llm/llmtest"
)

// BenchmarkContext40Turns runs the 40-turn conversation with an 8,000
// token window and with no budget, and reports the tokens sent by each
// (estimated) and the share of the budgeted run's prompt tokens a caching
// provider would bill as cached: the prefix each request shares with an
// earlier one.
func BenchmarkContext40Turns(b *testing.B) {
	for b.Loop() {
		with := sent(b, 8000)
		without := sent(b, 0)
		var total, cached int
		var seen []string
		for _, r := range with {
			text := wire(r)
			best := 0
			for _, s := range seen {
				best = max(best, commonPrefix(s, text))
			}
			total += agent.EstimateTokens(text)
			cached += agent.EstimateTokens(text[:best])
			seen = append(seen, text)
		}
		var nobudget int
		for _, r := range without {
			nobudget += agent.EstimateTokens(wire(r))
		}
		b.ReportMetric(float64(total), "tokens-budget")
		b.ReportMetric(float64(nobudget), "tokens-nobudget")
		b.ReportMetric(float64(cached)/float64(total), "cached-share")
		b.ReportMetric(float64(len(with)), "requests-budget")
	}
}

func sent(b *testing.B, window int) []llmtest.Request {
	c := newConversation(b, 40, window)
	defer c.agent.Session.Close()
	if _, err := c.run(b, "Read the files one by one, forty times."); err != nil {
		b.Fatal(err)
	}
	return c.server.Requests()
}

// wire is a request as a provider sees its prefix: the system prompt and
// the messages in order.
func wire(r llmtest.Request) string {
	var s strings.Builder
	s.WriteString(r.System)
	for _, m := range r.Messages {
		s.WriteString("\x00" + string(m.Role) + "\x00" + m.Text)
	}
	return s.String()
}

func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}
