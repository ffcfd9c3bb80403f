package shell

import (
	"strings"
	"testing"

	"github.com/agentcli/agent/prompt"
)

// TestCatalogEntrySize keeps run_command's entry of the system prompt's
// tool catalog under 450 bytes, measured as the prompt renders it.
func TestCatalogEntrySize(t *testing.T) {
	def := New(t.TempDir(), Options{}).Definition()
	pt := prompt.Tool{Name: def.Name, Description: def.Description}
	for _, p := range def.Params {
		pt.Params = append(pt.Params, prompt.Param{Name: p.Name, Kind: p.Kind.String(), Required: p.Required, Enum: p.Enum, Description: p.Description})
	}
	p, err := prompt.Build(t.Context(), prompt.Options{Root: t.TempDir(), Tools: []prompt.Tool{pt}})
	if err != nil {
		t.Fatal(err)
	}
	entry := strings.TrimPrefix(p.Section(prompt.SectionTools), "# Tools\n\n")
	t.Logf("catalog entry, %d bytes:\n%s", len(entry), entry)
	if len(entry) >= 450 {
		t.Errorf("run_command's catalog entry is %d bytes, want under 450", len(entry))
	}
	if def.Timeout <= DefaultMaxTime || !def.Writes {
		t.Errorf("definition %+v: want Writes and an outer limit above the longest timeout", def)
	}
	// What the rules and agent serve read from the definition.
	if def.CommandParam() != "command" || !def.RunsPrograms() || !def.NotServed || len(def.PathParams()) != 0 {
		t.Errorf("definition %+v: want the command parameter marked, never served, no path", def)
	}
}
