// Package catalog shows a person what the model is offered: the
// tools catalog (agent tools), the MCP servers and their tools (agent mcp
// list) and the system prompt's sizes (agent prompt --stats). What a
// server or a tool says of itself is anyone's text: shown escaped.
package catalog

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/agentcli/agent/agent/conversation"
	"github.com/agentcli/agent/tools"
)

// Catalog prints the tools of reg as a table: name, whether it writes,
// its parameters (* marks a required one), its first sentence.
func Catalog(w io.Writer, reg *tools.Registry) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tWRITES\tPARAMETERS\tDESCRIPTION")
	for _, t := range reg.Tools() {
		def := t.Definition()
		writes := "no"
		if def.Writes {
			writes = "yes"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", def.Name, writes, paramSummary(def), firstSentence(def.Description))
	}
	return tw.Flush()
}

// CatalogJSON prints the full definitions of reg's tools as JSON.
func CatalogJSON(w io.Writer, reg *tools.Registry) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(catalogJSON(reg))
}

// paramSummary names the parameters of def, * marking a required one.
func paramSummary(def tools.Definition) string {
	parts := make([]string, len(def.Params))
	for i, p := range def.Params {
		parts[i] = p.Name
		if p.Required {
			parts[i] += "*"
		}
	}
	return strings.Join(parts, " ")
}

// firstSentence keeps a table row short: the description up to its first
// sentence end or line break.
func firstSentence(s string) string { return conversation.FirstSentence(s) }

type paramJSON struct {
	Name        string   `json:"name"`
	Kind        string   `json:"kind"`
	Required    bool     `json:"required"`
	Verbatim    bool     `json:"verbatim,omitempty"`
	Enum        []string `json:"enum,omitempty"`
	Description string   `json:"description,omitempty"`
}

type toolJSON struct {
	Name        string      `json:"name"`
	Description string      `json:"description"`
	Writes      bool        `json:"writes"`
	Params      []paramJSON `json:"params"`
}

func catalogJSON(reg *tools.Registry) []toolJSON {
	out := []toolJSON{}
	for _, t := range reg.Tools() {
		def := t.Definition()
		tj := toolJSON{Name: def.Name, Description: def.Description, Writes: def.Writes, Params: []paramJSON{}}
		for _, p := range def.Params {
			tj.Params = append(tj.Params, paramJSON{Name: p.Name, Kind: p.Kind.String(), Required: p.Required,
				Verbatim: p.Verbatim, Enum: p.Enum, Description: p.Description})
		}
		out = append(out, tj)
	}
	return out
}
