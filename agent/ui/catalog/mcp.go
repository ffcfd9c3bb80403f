package catalog

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/internal/termtext"
	"github.com/agentcli/agent/tools/mcptool"
)

// notStarted marks, in agent mcp list, a project's server that is left
// out until the project is trusted.
const notStarted = "(not started: project not trusted; run with --trust or answer the question)"

// MCPList writes the servers as a table: name, transport, what it
// runs or where it connects (whole, as written: MCPServer.CommandLine), status,
// and under each its tools.
func MCPList(w io.Writer, specs []mcptool.Spec, written map[string]config.MCPServer, servers []mcptool.Server, pending []config.NamedMCPServer, notes []string) error {
	byName := map[string]mcptool.Server{}
	for _, s := range servers {
		byName[s.Name] = s
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	if len(specs) == 0 && len(pending) == 0 && len(notes) == 0 {
		fmt.Fprintln(w, "No MCP servers configured: add [mcp.servers.NAME] to config.toml, or an .mcp.json to the project.")
	}
	for _, sp := range specs {
		s := byName[sp.Name]
		kind := "stdio"
		if sp.URL != "" {
			kind = "http"
		}
		where := written[sp.Name].CommandLine()
		status := fmt.Sprintf("ok, %d tools", len(s.Tools))
		if s.Err != nil {
			status = "failed: " + s.Err.Error()
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", termtext.Escape(sp.Name), kind, tableCell(where), termtext.Escape(status))
		for _, t := range s.Tools {
			def := t.Definition()
			approval := "ask"
			if !def.Writes {
				approval = "auto"
			}
			desc := strings.TrimPrefix(def.Description, "(MCP server "+sp.Name+") ")
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", def.Name, approval, paramSummary(def), termtext.Escape(firstSentence(desc)))
		}
		for _, sk := range s.Skipped {
			fmt.Fprintf(tw, "  skipped\t\t\t%s\n", termtext.Escape(sk))
		}
	}
	for _, p := range pending {
		kind := "stdio"
		if p.URL != "" {
			kind = "http"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", termtext.Escape(p.Name), kind, tableCell(p.CommandLine()), notStarted)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, n := range notes {
		fmt.Fprintln(w, termtext.Escape(n))
	}
	return nil
}

// tableCell is text made safe for one cell of the list: escaped for the
// terminal, long blanks counted, and the line breaks and tabs inside it
// (a quoted argument may hold them) shown as ⏎ and ⇥, which would
// otherwise break the table's rows and columns.
func tableCell(s string) string {
	return strings.NewReplacer("\n", "⏎", "\t", "⇥").Replace(termtext.Escape(termtext.ShowBlanks(s)))
}
