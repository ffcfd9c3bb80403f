// Package shell provides run_command: the model runs a project's tests and
// builds with `sh -c`, inside a sandbox the kernel enforces (bubblewrap),
// never behind a list of forbidden words. It owns bubblewrap: Sandbox is
// the one way any program runs under it, run_command's commands and the
// programs a project defines (its MCP servers; ProgramSandbox gives them
// run_command's settings), so that what the sandbox hides is written once.
// A program's environment is set inside the sandbox only; what starts it
// outside gets the agent's own minimum. GitWatch puts the git guard
// around a program of the project that outlives a call.
//
// Inside the sandbox the project folder is writable except .git and
// .agent (read-only; the agent's records there, its sessions, audit log
// and jobs with their output, are not there at all, even once written
// during a command; the .agent folders above the project and of the
// other projects in Options.Masked are empty), nothing is mounted
// through a link a program could have put in the way, and every nested
// git repository found at the
// command's start, with the files their configs name for git to run or
// read (read-only too); a repository the command creates, or such a file,
// is moved into .agent/quarantine after it, and the result's alerts tell
// the person (gitguard.go, gitprotect.go); the user's build caches are
// writable; the home
// folder is hidden apart from those and the tool folders on PATH; the rest
// of the system is read-only; /tmp and /run are private and empty; there
// is no network unless the user allows it for the command; the command has
// its own PID namespace, which ends with the call (so nothing it started
// outlives it) and with the agent; a process limit bounds fork bombs;
// stdin is empty.
//
// A call ends when the command exits, on its timeout (TOOL_TIMEOUT) or
// when cancelled: every process of the sandbox gets SIGTERM, then SIGKILL
// after a grace period. The result holds the exit code, the duration, the
// output bounded to a budget (head and tail kept, the middle counted), and
// the project files the command created, changed or deleted, found by a
// before/after scan, with the reminder that agent undo cannot revert them.
//
// With background = true (when Options.Jobs is set) the command starts
// the same way as a job of package jobs and the call returns at once;
// its end runs the same checks and is told to the model at its next
// request (background.go).
//
// Nothing here reads configuration: cmd/agent maps the user's own config
// (never a project's) onto Options.
package shell
