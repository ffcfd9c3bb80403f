package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentcli/agent/tools"
)

// rawLocation is a location as a server may give it: a Location or a
// LocationLink.
type rawLocation struct {
	location
}

func (l *rawLocation) UnmarshalJSON(b []byte) error {
	var link locationLink
	if err := json.Unmarshal(b, &link); err == nil && link.TargetURI != "" {
		l.location = location{URI: link.TargetURI, Range: link.TargetSelectionRange}
		return nil
	}
	return json.Unmarshal(b, &l.location)
}

// oneOrMany decodes a result that is one value, a list of them, or null.
type oneOrMany struct{ list *[]rawLocation }

func (o *oneOrMany) UnmarshalJSON(b []byte) error {
	if strings.HasPrefix(strings.TrimSpace(string(b)), "[") {
		return json.Unmarshal(b, o.list)
	}
	if string(b) == "null" {
		return nil
	}
	var one rawLocation
	if err := json.Unmarshal(b, &one); err != nil {
		return err
	}
	*o.list = append(*o.list, one)
	return nil
}

// locations answers definition and references: each place as
// path:line:column and its line's text, the project's files first.
func (m *Manager) locations(op string, raw []rawLocation) tools.Result {
	if len(raw) == 0 {
		return tools.Result{Message: "no " + strings.ReplaceAll(op, "_", " ") + " found"}
	}
	var b strings.Builder
	lines := newExcerpts(m)
	for i, l := range raw {
		if i == maxLocations {
			fmt.Fprintf(&b, "… and %d more\n", len(raw)-i)
			break
		}
		b.WriteString(lines.place(uriPath(l.URI), l.Range.Start) + "\n")
	}
	what := "definition"
	if op == "references" {
		what = "reference"
	}
	msg := fmt.Sprintf("%d %s", len(raw), what)
	if len(raw) != 1 {
		msg += "s"
	}
	return tools.Result{Message: msg, Content: b.String()}
}

// documentSymbols answers symbols: the file's symbols as an outline,
// each with its line.
func (m *Manager) documentSymbols(ctx context.Context, srv *server, abs string, doc map[string]string) (tools.Result, error) {
	var syms []documentSymbol
	if err := srv.call(ctx, "textDocument/documentSymbol", map[string]any{"textDocument": doc}, &syms); err != nil {
		return m.failed(srv, err)
	}
	var b strings.Builder
	n := 0
	var walk func(list []documentSymbol, depth int)
	walk = func(list []documentSymbol, depth int) {
		for _, s := range list {
			if n == maxSymbols {
				return
			}
			n++
			r := s.SelectionRange
			if s.Location != nil {
				r = s.Location.Range
			}
			fmt.Fprintf(&b, "%s%d: %s %s", strings.Repeat("  ", depth), r.Start.Line+1, kindName(s.Kind), oneLine(s.Name, 200))
			if s.Detail != "" {
				b.WriteString(" " + oneLine(s.Detail, 200))
			}
			b.WriteString("\n")
			walk(s.Children, depth+1)
		}
	}
	walk(syms, 0)
	if n == 0 {
		return tools.Result{Message: "no symbols in " + m.rel(abs)}, nil
	}
	return tools.Result{Message: fmt.Sprintf("%d symbols in %s", n, m.rel(abs)), Content: b.String()}, nil
}

// workspaceSymbols answers workspace_symbols from the server of path's
// files, or from every server running (those whose root markers the
// project holds are started when none is).
func (m *Manager) workspaceSymbols(ctx context.Context, a Args) (tools.Result, error) {
	if strings.TrimSpace(a.Query) == "" {
		return tools.Errorf(tools.CodeSchemaInvalid, "workspace_symbols needs query, a name or part of one"), nil
	}
	var srvs []*server
	if a.Path != "" {
		srv, _, _, res := m.open(ctx, a.Path)
		if res != nil {
			return *res, nil
		}
		srvs = append(srvs, srv)
	} else {
		srvs = m.projectServers()
	}
	if len(srvs) == 0 {
		return tools.Errorf(tools.CodeProviderError, "no language server is running for this project: give path, a file of the language to search"), nil
	}
	var all []symbolInformation
	for _, srv := range srvs {
		var syms []symbolInformation
		if err := srv.call(ctx, "workspace/symbol", map[string]string{"query": a.Query}, &syms); err != nil {
			return m.failed(srv, err)
		}
		all = append(all, syms...)
	}
	if len(all) == 0 {
		return tools.Result{Message: "no symbol matches " + a.Query}, nil
	}
	var b strings.Builder
	lines := newExcerpts(m)
	for i, s := range all {
		if i == maxLocations {
			fmt.Fprintf(&b, "… and %d more\n", len(all)-i)
			break
		}
		name := kindName(s.Kind) + " " + oneLine(s.Name, 200)
		if s.ContainerName != "" {
			name += " in " + oneLine(s.ContainerName, 100)
		}
		fmt.Fprintf(&b, "%s  %s\n", name, lines.place(uriPath(s.Location.URI), s.Location.Range.Start))
	}
	return tools.Result{Message: fmt.Sprintf("%d symbols match %s", len(all), a.Query), Content: b.String()}, nil
}

// projectServers are the running servers, or, when none runs, those
// started for the project folder whose root markers it holds, ready.
func (m *Manager) projectServers() []*server {
	m.mu.Lock()
	var out []*server
	for _, k := range m.order {
		if in := m.insts[k]; in.srv != nil && in.srv.err() == nil {
			out = append(out, in.srv)
		}
	}
	m.mu.Unlock()
	if len(out) > 0 {
		return out
	}
	for _, spec := range m.o.Servers {
		if hasMarker(m.root, spec.RootMarkers) {
			if srv, err := m.server(spec, m.root); err == nil {
				<-srv.ready
				if srv.err() == nil {
					out = append(out, srv)
				}
			}
		}
	}
	return out
}

// excerpts reads the lines of places in project files, each file once.
type excerpts struct {
	m     *Manager
	files map[string][]string
}

func newExcerpts(m *Manager) *excerpts { return &excerpts{m: m, files: map[string][]string{}} }

// place is path:line:column of a position, with the line's text when
// the file is the project's and the file tools may read it (a server
// could name any file: one outside the project is named, not read).
func (e *excerpts) place(abs string, pos position) string {
	if abs == "" {
		return "(a place outside the file system)"
	}
	if !within(e.m.root, abs) {
		return fmt.Sprintf("%s:%d (outside the project)", abs, pos.Line+1)
	}
	rel := e.m.rel(abs)
	lines, ok := e.files[rel]
	if !ok {
		if data, _, err := e.m.o.Read(rel, maxFileSize); err == nil {
			lines = strings.Split(string(data), "\n")
		}
		e.files[rel] = lines
	}
	if pos.Line >= len(lines) {
		return fmt.Sprintf("%s:%d", rel, pos.Line+1)
	}
	line := strings.TrimSuffix(lines[pos.Line], "\r")
	return fmt.Sprintf("%s:%d:%d: %s", rel, pos.Line+1, column(line, pos.Character), oneLine(line, maxExcerpt))
}
