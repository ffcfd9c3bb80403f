// Package conversation is the home of one conversation with the agent:
// a Conversation owns its session, the file tools' read state, the
// system prompt and the project watcher, the context budget, the audit
// log, the project's file sandbox (one, opened once), the tool registry,
// the approval (policy, "always" answers, the user's rules) and every
// closer, and keeps their invariants itself: a cleared, resumed or
// rewound conversation forgets the reads and "always" answers that do
// not belong to it.
//
// `agent run`, the chat, the demo and the self-checks build one with a
// Builder; `agent serve`, which has no model or session, takes from the
// same Builder the parts it needs (Served). The chat drives a
// Conversation directly: it offers its operations as a table of slash
// commands (Commands).
//
// What needs the world outside the agent (the concrete model providers,
// the configuration with its trust question, the terminal) comes in
// through the Builder's fields, which cmd/agent fills in; this package
// never imports cobra, Bubble Tea or a provider.
package conversation
