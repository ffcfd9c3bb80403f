package shell

import (
	"context"
	"testing"

	"github.com/agentcli/agent/tools"
)

type contextType = context.Context

func contextWithCancel(t *testing.T) (context.Context, context.CancelFunc) {
	return context.WithCancel(t.Context())
}

func short(s string) string { return tools.RunePrefix(s, 300) }
