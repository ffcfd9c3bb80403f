// Package mcptool speaks the Model Context Protocol both ways, with the
// official Go SDK.
//
// As a client it imports the tools of MCP servers into a tools.Registry:
// Start connects to every configured server in parallel, each under its own
// time limit, and delivers each server's tools as they arrive; Discover
// waits for all of them. An imported tool is named mcp__<server>__<tool>,
// takes its parameters from the tool's input schema, converts the XML's
// strings to the schema's types and validates them before the call, and
// answers with bounded text. Everything a server says (descriptions,
// results, annotations) is untrusted data: descriptions are cut to one
// line, results travel as content, and a server's own read-only hint is
// ignored; only the user's config can exempt a tool from approval. A
// project's server (Spec.Sandboxed) starts only through Options.Sandbox,
// which runs it under bubblewrap, with a Guard that checks what it left
// in the project after each call and when it stops (the git repositories
// it planted: alerts in the call's result, or Options.Alert); each server
// program starts in a process group of its own, ended whole when the
// server stops; this agent's own serve is never started as a server,
// wrapped or copied.
//
// As a server it offers a Registry's tools (NewServer; agent/serve runs
// it over stdio) or Streamable HTTP (HTTPHandler), annotated read-only or destructive, with
// writing tools left out unless allowed.
package mcptool
