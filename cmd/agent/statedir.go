package main

import (
	"fmt"

	"github.com/agentcli/agent/agent/conversation"
)

// ensureStateDir makes the project's .agent folder before state is
// written there (conversation.EnsureStateDir).
func ensureStateDir(root string) error { return conversation.EnsureStateDir(root) }

// upgradeStateDir is ensureStateDir after an undo, redo or restore
// wrote in .agent: the work is done, so a failure is only said.
func upgradeStateDir(d *factory, root string) {
	if err := ensureStateDir(root); err != nil {
		fmt.Fprintf(d.io.ErrOut, "agent: %v\n", err)
	}
}
