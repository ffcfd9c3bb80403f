package agent

import "github.com/agentcli/agent/agent/llm"

// EstimateTokens estimates what s costs in tokens (llm.EstimateTokens).
func EstimateTokens(s string) int { return llm.EstimateTokens(s) }

// rawTokens estimates a whole request, before correction.
func rawTokens(req llm.Request) int { return llm.EstimateRequest(req) }
