// Package conversation is the home of one conversation with the agent:
// a Conversation owns its session, the file tools' read state, the
// system prompt and the project watcher, the context budget, the audit
// log, the project's file sandbox (one, opened once), the tool set,
// the approval (policy, "always" answers, the user's rules) and every
// closer, and keeps their invariants itself: a cleared, resumed or
// rewound conversation forgets the reads and "always" answers that do
// not belong to it.
//
// Open assembles one, in the order those invariants need, from the
// parts a World gives (agent/app's Builder gives them: the
// configuration, the model, the tools, the system prompt). The chat
// drives a Conversation directly: it offers its operations as a table of
// slash commands (Commands).
//
// This package never imports cobra, Bubble Tea or a provider, nor builds
// a tool itself.
package conversation
