// Package app is the agent's composition root: from a project folder and
// the world outside the agent (the configuration and its trust
// question, the provider constructor, the helper programs, the backup
// key, which cmd/agent fills into a Builder) it builds what each command
// needs: a conversation (Builder.New, through conversation.Open), the
// tool registry (tools.go: the one place a tool is added), the system
// prompt fitted to the model's window (prompt.go), the user's permission
// rules (rules.go), what agent serve offers (Serve), the tools of one
// `agent tool-call` (ToolSession) or of the catalog (Catalog), and the
// stores and servers a command opens (OpenNotes, MCPSpecs,
// ProjectFolder).
//
// It never imports cobra, Bubble Tea or a provider: those come in
// through the Builder's fields.
package app
