package main

import (
	"errors"
	"fmt"

	"github.com/agentcli/agent/agent/conversation"
)

// Exit codes of the agent command.
const (
	exitOK            = 0
	exitFailed        = 1
	exitUsage         = 2
	exitMaxIterations = 3
	// exitRefused: writes the model asked for were refused by the
	// approval policy (no one to ask, or --approval never).
	exitRefused = 4
	// exitInterrupted: Ctrl+C or SIGTERM (128 + SIGINT).
	exitInterrupted = 130
)

// usageError marks a mistake in how the command was called: it exits with
// exitUsage and is printed with a hint to --help.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usageErrorf(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// isUsage reports whether err is bad usage: ours, or what the
// conversation package marks so (a session that does not exist).
func isUsage(err error) bool {
	var ue usageError
	return errors.As(err, &ue) || errors.Is(err, conversation.ErrUsage)
}

// exitError carries a specific exit code for an error already reported
// (or one that needs no more words than its message).
type exitError struct {
	code int
	err  error // nil when the command already printed what went wrong
}

func (e exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}
func (e exitError) Unwrap() error { return e.err }

// exitCode maps an error returned by a command to the process exit code.
func exitCode(err error) int {
	var ee exitError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ee):
		return ee.code
	case isUsage(err):
		return exitUsage
	default:
		return exitFailed
	}
}
