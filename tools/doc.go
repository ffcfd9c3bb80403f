// Package tools defines what a tool is for the agent: its definition
// (name, description, typed parameters), its execution, and the Registry
// that validates the model's raw string arguments and runs tools safely.
//
// # Two error channels
//
// A mistake the model can fix (a missing file, a bad line range, a schema
// error, a denied write) is a Result whose Code is one of the protocol's
// error codes and whose Message is one line saying what was wrong and what
// would work. It comes back with a nil Go error: the model reads it in its
// <tool_response> and carries on.
//
// A failure of the program itself (the disk is full while writing a backup,
// the session log cannot be written) is a Go error: the turn ends and the
// user sees it. Tools must not hide such failures inside model text, and
// must not turn a model mistake into a Go error, which would kill the turn.
//
// The Registry guarantees that Call never panics: a panicking tool becomes
// an error Result, and a tool that runs past its time limit becomes
// TOOL_TIMEOUT.
package tools
