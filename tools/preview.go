package tools

import "context"

// Preview is what a call would change, shown to a person before they
// approve it. It is computed through the same checks as the call itself,
// so nobody is asked about an action that would fail.
type Preview struct {
	// Summary names the action in a few words ("rewrite README.md",
	// "update note 12", "run go test ./...").
	Summary string
	// Diff is a unified diff of the change, when the action changes text
	// (file writes, note updates); empty otherwise.
	Diff string
	// Lines are other facts worth showing (a command, its folder,
	// whether the network is on); one fact a line.
	Lines []string
	// Scope is what an "always" answer to this call covers for the rest
	// of the conversation, as a key ("run_command:go test",
	// "mcp:github"); empty means the whole tool. ScopeLabel says it in
	// words for the question ("commands starting with go test").
	Scope      string
	ScopeLabel string
}

// Previewer is implemented by tools that can say what a call would do
// before it runs. Preview returns the preview, or a non-nil error Result
// when the call would fail: the loop then answers with that Result and
// asks nobody. A Go error is a failure of the program, as for Execute.
type Previewer interface {
	Preview(ctx context.Context, in Input) (Preview, *Result, error)
}
