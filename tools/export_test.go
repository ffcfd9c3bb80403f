package tools

import (
	"testing"
	"time"
)

// SetCancelGrace makes Execute wait d for a tool to stop, for the test.
func SetCancelGrace(t *testing.T, d time.Duration) {
	old := cancelGrace
	cancelGrace = d
	t.Cleanup(func() { cancelGrace = old })
}
