// Package prompt builds what the model knows of the project before it
// calls a tool: the system prompt (role and rules, the tool-call protocol
// with examples, the tool catalog, the environment, the project's
// AGENTS.md) and a bounded, gitignore-aware file tree.
//
// Every byte of the system prompt is paid for on every turn, so sections
// are short, come in a fixed order and change only when their input
// changes: providers' prompt caches then hit from one turn to the next.
//
// The ignore rules (Ignore) follow git's own matching algorithm and are
// checked against `git check-ignore`; other packages reuse them to hide
// the same files from their listings and searches.
//
// The package is a leaf: it imports only the standard library. Callers
// pass in the tool catalog and the protocol examples, rendered by the
// protocol package, so that what the prompt shows cannot drift from what
// the parser accepts.
package prompt
