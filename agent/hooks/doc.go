// Package hooks runs the programs a person (or a trusted project) sets to
// run at the agent's steps, on Claude Code's contract: one JSON object on
// standard input (session_id, transcript_path, cwd, hook_event_name and
// what the event is about), the exit code and standard error, and a JSON
// object on standard output for finer decisions (decision and reason,
// hookSpecificOutput with permissionDecision, updatedInput and
// additionalContext, continue and stopReason, systemMessage).
//
// A Runner holds the configured hooks. Fire runs those of one event that
// match (a tool event's matcher is a regular expression over the tool's
// name, ours or Claude Code's), all at once, each in its own process
// group with its time limit and bounded output, and applies what they
// said in their configured order: the Outcome. What each hook did that a
// person should know (blocked, allowed, changed the input, failed) is a
// Report, for the faces and the audit log.
//
// The package starts no program itself: Options.Start makes each hook's
// command (the person's with the trusted PATH, a project's in the
// sandbox), so that what runs where is decided by the application.
package hooks
