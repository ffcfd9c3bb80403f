package main

import (
	"errors"
	"fmt"
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
	var ue usageError
	var ee exitError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ee):
		return ee.code
	case errors.As(err, &ue):
		return exitUsage
	default:
		return exitFailed
	}
}
