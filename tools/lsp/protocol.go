package lsp

import (
	"encoding/json"
	"net/url"
	"path/filepath"
	"strings"
)

// The few shapes of the Language Server Protocol (3.17) the agent uses,
// written out here rather than taken from a generated package of every
// type the protocol has: positions, locations, diagnostics, symbols,
// hover.

type position struct {
	Line      int `json:"line"`      // from 0
	Character int `json:"character"` // from 0, in UTF-16 code units
}

type lspRange struct {
	Start position `json:"start"`
	End   position `json:"end"`
}

type location struct {
	URI   string   `json:"uri"`
	Range lspRange `json:"range"`
}

// locationLink is what a server may answer a definition with instead of
// a location.
type locationLink struct {
	TargetURI            string   `json:"targetUri"`
	TargetSelectionRange lspRange `json:"targetSelectionRange"`
}

// Severities of a diagnostic.
const (
	severityError   = 1
	severityWarning = 2
)

type diagnostic struct {
	Range    lspRange `json:"range"`
	Severity int      `json:"severity"`
	Code     any      `json:"code,omitempty"`
	Source   string   `json:"source"`
	Message  string   `json:"message"`
}

type publishDiagnostics struct {
	URI         string       `json:"uri"`
	Version     *int         `json:"version"`
	Diagnostics []diagnostic `json:"diagnostics"`
}

// documentSymbol is one symbol of a file, with its children; a server
// may answer with flat symbolInformation instead.
type documentSymbol struct {
	Name           string           `json:"name"`
	Detail         string           `json:"detail"`
	Kind           int              `json:"kind"`
	Range          lspRange         `json:"range"`
	SelectionRange lspRange         `json:"selectionRange"`
	Children       []documentSymbol `json:"children"`
	// Location is set when the server answered with symbolInformation.
	Location *location `json:"location"`
}

type symbolInformation struct {
	Name          string   `json:"name"`
	Kind          int      `json:"kind"`
	Location      location `json:"location"`
	ContainerName string   `json:"containerName"`
}

// hover's contents come in three shapes: a string, a MarkupContent, or
// a list of MarkedStrings (strings or {language, value}).
type hover struct {
	Contents json.RawMessage `json:"contents"`
}

// symbolKinds names the SymbolKind values, from 1.
var symbolKinds = []string{"file", "module", "namespace", "package", "class", "method", "property", "field",
	"constructor", "enum", "interface", "function", "variable", "constant", "string", "number", "boolean",
	"array", "object", "key", "null", "enum member", "struct", "event", "operator", "type parameter"}

func kindName(k int) string {
	if k >= 1 && k <= len(symbolKinds) {
		return symbolKinds[k-1]
	}
	return "symbol"
}

// fileURI is the file: URI of the absolute path p.
func fileURI(p string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String()
}

// uriPath is the absolute path a file: URI names; "" for another URI.
func uriPath(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || !strings.HasPrefix(u.Path, "/") {
		return ""
	}
	return filepath.Clean(filepath.FromSlash(u.Path))
}

// text is a hover's contents as plain text.
func (h hover) text() string {
	var s string
	if json.Unmarshal(h.Contents, &s) == nil {
		return s
	}
	var markup struct {
		Value string `json:"value"`
	}
	if json.Unmarshal(h.Contents, &markup) == nil && markup.Value != "" {
		return markup.Value
	}
	var list []json.RawMessage
	if json.Unmarshal(h.Contents, &list) != nil {
		return ""
	}
	var parts []string
	for _, m := range list {
		parts = append(parts, hover{Contents: m}.text())
	}
	return strings.Join(parts, "\n")
}
