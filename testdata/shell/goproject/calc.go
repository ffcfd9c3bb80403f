// Package calc is a fixture project for run_command's tests: a test that
// passes, until a change breaks it.
package calc

// Add returns a + b.
func Add(a, b int) int { return a + b }
