//go:build !agent_broken_skip_rule

package agent

// skipAfterFailure is protocol.md §4's rule: a write after a failed call
// of the same reply is skipped. It is a constant so that a test can build
// the agent with the rule broken (the agent_broken_skip_rule tag) and see
// `agent test-combined-tools` fail: proof that the self-check exercises
// the real loop.
const skipAfterFailure = true
