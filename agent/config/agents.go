package config

import (
	"fmt"
	"strconv"
	"strings"
)

// Agents configures the sub-agents the task tool runs (the agent files
// of .agent/agents and the like, and the built-in explorer).
type Agents struct {
	// MaxParallel bounds the task calls of one reply that run at the
	// same time: those whose agents only read. An agent with a tool
	// that writes always runs alone.
	MaxParallel int `toml:"max_parallel"`
}

// maxParallelLimit is the most sub-agents that may run at once.
const maxParallelLimit = 16

func (c *Config) validateAgents() error {
	if n := c.Agents.MaxParallel; n < 1 || n > maxParallelLimit {
		return fmt.Errorf("agents.max_parallel = %d (from %s): use a number from 1 (one at a time) to %d", n, c.Origin("agents.max_parallel"), maxParallelLimit)
	}
	return nil
}

// writeAgents prints the [agents] table for Write.
func (c *Config) writeAgents(b *strings.Builder, line func(key, value string)) {
	b.WriteString("\n[agents]\n")
	line("agents.max_parallel", strconv.Itoa(c.Agents.MaxParallel))
}
