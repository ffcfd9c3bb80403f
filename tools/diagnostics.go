package tools

import (
	"fmt"
	"strings"
)

// Diagnostics are what the language servers said of the files a call
// changed, once they had looked at them (package lsp adds them to the
// result): the chat's card shows "2 errors", agent run's summary and
// its JSON carry them.
type Diagnostics struct {
	// Files are the changed files the servers looked at, project-relative.
	Files []string `json:"files"`
	// Errors and Warnings count those files' own (warnings only when
	// [lsp] warnings asks for them).
	Errors   int `json:"errors"`
	Warnings int `json:"warnings,omitempty"`
	// Elsewhere counts the errors the servers see in other files.
	Elsewhere int `json:"errors_elsewhere,omitempty"`
	// Items are the changed files' own, the first ten.
	Items []Diagnostic `json:"items,omitempty"`
	// Note says once why some files got none: no server for them, a
	// server that crashed, or one that did not answer in time.
	Note string `json:"note,omitempty"`
}

// Diagnostic is one error or warning of a language server.
type Diagnostic struct {
	Path     string `json:"path"`   // project-relative
	Line     int    `json:"line"`   // from 1
	Column   int    `json:"column"` // from 1, in characters
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Source   string `json:"source,omitempty"` // the server, or its checker ("compiler")
}

func (d Diagnostic) String() string {
	return fmt.Sprintf("%s:%d:%d: %s: %s", d.Path, d.Line, d.Column, d.Severity, d.Message)
}

// Summary is the count for a person, "2 errors" or "no errors, 3
// elsewhere"; "" when no file was looked at.
func (d *Diagnostics) Summary() string {
	if d == nil || len(d.Files) == 0 {
		return ""
	}
	var parts []string
	switch {
	case d.Errors == 0 && d.Warnings == 0:
		parts = append(parts, "no errors")
	case d.Errors > 0:
		parts = append(parts, count(d.Errors, "error", "errors"))
	}
	if d.Warnings > 0 {
		parts = append(parts, count(d.Warnings, "warning", "warnings"))
	}
	s := strings.Join(parts, ", ")
	if d.Elsewhere > 0 {
		s += fmt.Sprintf(" (%d elsewhere)", d.Elsewhere)
	}
	return s
}

func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
