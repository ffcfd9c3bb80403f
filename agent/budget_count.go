package agent

import "github.com/agentcli/agent/agent/llm"

// EstimateTokens estimates what s costs in tokens (llm.EstimateTokens).
func EstimateTokens(s string) int { return llm.EstimateTokens(s) }

// rawTokens estimates a whole request, before correction, its images by
// the model's rule.
func (b *Budget) rawTokens(req llm.Request) int { return llm.EstimateRequestWith(req, b.imageTokens) }

// imageCost is what a message's images cost, by the model's rule.
func (b *Budget) imageCost(m llm.Message) int {
	n := 0
	for _, img := range m.Images {
		n += llm.ImageSpec{Tokens: b.imageTokens}.Cost(img)
	}
	return n
}
