// Package termtext shapes text that comes from outside the agent (a
// model's reply, a file, a provider's error page, an MCP server's
// description) for a person to read: escaped so that it cannot act on
// a terminal, stripped of control sequences for a file or a pipe,
// folded onto one line, cut short without splitting a character, its
// blank space made visible.
//
// It is the project's one copy of these rules: the providers (agent/llm),
// the speech engines (tts), the tools and the commands all use it, so it
// depends on the standard library only and imports nothing of the
// project.
package termtext
