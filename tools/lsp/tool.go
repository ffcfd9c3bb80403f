package lsp

import (
	"context"
	_ "embed"
	"errors"
	"path/filepath"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/agentcli/agent/internal/termtext"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/sandbox"
)

//go:embed lsp.md
var description string

// Name is the tool's name in the catalog.
const Name = "lsp"

// Bounds of an answer.
const (
	maxLocations = 50
	maxSymbols   = 200
	maxHover     = 4000
	maxExcerpt   = 160
)

// Args are the lsp tool's parameters.
type Args struct {
	Operation string `json:"operation" enum:"definition,references,hover,symbols,workspace_symbols" jsonschema:"what to ask"`
	Path      string `json:"path,omitempty" path:"true" jsonschema:"the file"`
	Line      *int   `json:"line,omitempty" jsonschema:"line, from 1"`
	Column    *int   `json:"column,omitempty" jsonschema:"column, from 1 (default: the symbol's, or the line's first non-blank)"`
	Symbol    string `json:"symbol,omitempty" jsonschema:"a name in the file, instead of line and column"`
	Query     string `json:"query,omitempty" jsonschema:"for workspace_symbols"`
}

// Tool returns the lsp tool over m: read-only, offered by name until
// first called (it is rarely needed), and not served to other agents
// (it starts programs).
func Tool(m *Manager) tools.Tool {
	return tools.New(Name, description, m.navigate, tools.Acts(tools.ActionSearch), tools.OnDemand(), tools.NotServed())
}

func (m *Manager) navigate(ctx context.Context, a Args) (tools.Result, error) {
	if a.Operation == "workspace_symbols" {
		return m.workspaceSymbols(ctx, a)
	}
	if a.Path == "" {
		return tools.Errorf(tools.CodeSchemaInvalid, "%s needs path, the file to ask about", a.Operation), nil
	}
	srv, abs, text, res := m.open(ctx, a.Path)
	if res != nil {
		return *res, nil
	}
	doc := map[string]string{"uri": fileURI(abs)}
	if a.Operation == "symbols" {
		return m.documentSymbols(ctx, srv, abs, doc)
	}
	pos, res := position_(text, a)
	if res != nil {
		return *res, nil
	}
	params := map[string]any{"textDocument": doc, "position": pos}
	switch a.Operation {
	case "hover":
		var h *hover
		if err := srv.call(ctx, "textDocument/hover", params, &h); err != nil {
			return m.failed(srv, err)
		}
		if h == nil || strings.TrimSpace(h.text()) == "" {
			return tools.Result{Message: "nothing to show there"}, nil
		}
		return tools.Result{Message: "hover", Content: clip(h.text(), maxHover)}, nil
	case "references":
		params["context"] = map[string]bool{"includeDeclaration": true}
	}
	method := "textDocument/" + a.Operation
	var raw []rawLocation
	if err := srv.call(ctx, method, params, &oneOrMany{&raw}); err != nil {
		return m.failed(srv, err)
	}
	return m.locations(a.Operation, raw), nil
}

// open is the server of the project file p, with p's current text sent
// to it.
func (m *Manager) open(ctx context.Context, p string) (*server, string, string, *tools.Result) {
	abs := m.abs(p)
	if abs == "" {
		r := tools.Errorf(tools.CodePathOutsideRoot, "%s is outside the project", p)
		return nil, "", "", &r
	}
	spec, ok := m.specFor(abs)
	if !ok {
		r := tools.Errorf(tools.CodeUnsupportedType, "no language server for %s files%s", fileTypeName(abs), m.missingWhy(abs))
		return nil, "", "", &r
	}
	data, _, err := m.o.Read(m.rel(abs), maxFileSize)
	if err != nil {
		r := tools.Errorf(readCode(err), "%s: %v", p, err)
		return nil, "", "", &r
	}
	srv, err := m.server(spec, findRoot(m.root, abs, spec.RootMarkers))
	if err == nil {
		select {
		case <-srv.ready:
			err = srv.err()
		case <-ctx.Done():
			err = ctx.Err()
		}
	}
	if err == nil {
		err = srv.put(abs, string(data), false)
	}
	if err != nil {
		r := tools.Errorf(tools.CodeProviderError, "%s is not running: %v", spec.Name, err)
		return nil, "", "", &r
	}
	return srv, abs, string(data), nil
}

// readCode is the protocol code of a refused or failed read.
func readCode(err error) string {
	if code := sandbox.RefusalCode(err); code != "" {
		return code
	}
	return tools.CodeProviderError
}

func fileTypeName(abs string) string {
	if ft := FileType(abs); ft != "" {
		return ft
	}
	return filepath.Base(abs)
}

// missingWhy says why the known server of abs's files is not there.
func (m *Manager) missingWhy(abs string) string {
	for _, s := range Known {
		if why, ok := m.o.Missing[s.Name]; ok && s.Serves(abs) {
			return " (" + why + ")"
		}
	}
	return ""
}

func (m *Manager) failed(srv *server, err error) (tools.Result, error) {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return tools.Result{}, err
	}
	return tools.Errorf(tools.CodeProviderError, "%s: %v", srv.spec.Name, oneLine(err.Error(), 300)), nil
}

// position_ is where a call points in text: line and column from 1
// (column in characters), or the symbol's first whole-word use (on line,
// when given), as the protocol counts (UTF-16 units from 0).
func position_(text string, a Args) (position, *tools.Result) {
	lines := strings.Split(text, "\n")
	bad := func(format string, args ...any) (position, *tools.Result) {
		r := tools.Errorf(tools.CodeSchemaInvalid, format, args...)
		return position{}, &r
	}
	switch {
	case a.Symbol != "":
		for i, l := range lines {
			if a.Line != nil && i+1 != *a.Line {
				continue
			}
			if col := wordIndex(l, a.Symbol); col >= 0 {
				return position{Line: i, Character: utf16Len(l[:col])}, nil
			}
		}
		if a.Line != nil {
			return bad("%s is not on line %d of %s", a.Symbol, *a.Line, a.Path)
		}
		return bad("%s does not occur in %s", a.Symbol, a.Path)
	case a.Line == nil:
		return bad("%s needs line (and column) or symbol", a.Operation)
	case *a.Line < 1 || *a.Line > len(lines):
		return bad("line %d is outside %s, which has %d lines", *a.Line, a.Path, len(lines))
	}
	l := strings.TrimSuffix(lines[*a.Line-1], "\r")
	col := len(l) - len(strings.TrimLeft(l, " \t"))
	if a.Column != nil {
		if *a.Column < 1 || *a.Column > utf8.RuneCountInString(l)+1 {
			return bad("column %d is outside line %d, which has %d characters", *a.Column, *a.Line, utf8.RuneCountInString(l))
		}
		col = len(runePrefix(l, *a.Column-1))
	}
	return position{Line: *a.Line - 1, Character: utf16Len(l[:col])}, nil
}

// wordIndex is the byte offset of word in line where it stands as a
// whole word, or -1.
func wordIndex(line, word string) int {
	for off := 0; ; {
		i := strings.Index(line[off:], word)
		if i < 0 {
			return -1
		}
		i += off
		end := i + len(word)
		if (i == 0 || !isWordByte(line[i-1])) && (end == len(line) || !isWordByte(line[end])) {
			return i
		}
		off = i + 1
	}
}

func isWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= 0x80
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += len(utf16.Encode([]rune{r}))
	}
	return n
}

// runePrefix is the first n characters of s.
func runePrefix(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

// column is the character column, from 1, of the protocol's character
// offset (UTF-16 units) in line.
func column(line string, character int) int {
	col, units := 1, 0
	for _, r := range line {
		if units >= character {
			break
		}
		units += len(utf16.Encode([]rune{r}))
		col++
	}
	return col
}

// clip is a server's text bounded to n bytes, the cut marked.
func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) > n {
		s = termtext.RunePrefix(s, n) + "\n…"
	}
	return s
}
