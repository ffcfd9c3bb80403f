package tools

import "github.com/agentcli/agent/internal/termtext"

// The text helpers below moved to internal/termtext, the project's one
// copy of the rules for showing untrusted text; these names remain only
// until their last callers (the chat's TUI) use termtext directly.

// RunePrefix is termtext.RunePrefix.
//
// Deprecated: use termtext.RunePrefix.
func RunePrefix(s string, n int) string { return termtext.RunePrefix(s, n) }

// HiddenRune is termtext.Hidden.
//
// Deprecated: use termtext.Hidden.
func HiddenRune(r rune) bool { return termtext.Hidden(r) }

// ShowBlanks is termtext.ShowBlanks.
//
// Deprecated: use termtext.ShowBlanks.
func ShowBlanks(s string) string { return termtext.ShowBlanks(s) }
