//go:build agent_broken_skip_rule

package agent

// skipAfterFailure is off in this deliberately broken build; see
// skiprule.go.
const skipAfterFailure = false
