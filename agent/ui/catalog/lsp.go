package catalog

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/agentcli/agent/tools/lsp"
)

// LSP prints agent lsp's list: the project's language servers, and the
// state and last check of those the last conversation ran (as of when;
// zero when none did), as text or JSON.
func LSP(w io.Writer, list []lsp.Status, when time.Time, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		var last *time.Time
		if !when.IsZero() {
			last = &when
		}
		return enc.Encode(struct {
			Servers []lsp.Status `json:"servers"`
			Last    *time.Time   `json:"last_conversation,omitempty"`
		}{list, last})
	}
	lsp.WriteStatus(w, list)
	if !when.IsZero() {
		_, err := fmt.Fprintf(w, "(the last conversation's servers as of %s)\n", when.Local().Format("2006-01-02 15:04"))
		return err
	}
	return nil
}
