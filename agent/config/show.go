package config

import (
	"fmt"
	"io"
	"strings"
)

// Show writes cfg as TOML to w for agent config, each value with where it
// came from. loadErr is ErrNoProvider's error when no provider is
// configured: showing the configuration still works, and the missing
// provider is said at the top as a comment and on errOut. Otherwise a
// missing API key is the error.
func Show(w, errOut io.Writer, cfg Config, loadErr error) error {
	noProvider := loadErr != nil
	if noProvider {
		// Showing the configuration is what was asked, and it
		// worked: the missing provider is said, as a comment
		// that keeps the output valid TOML, and on stderr.
		fmt.Fprintf(w, "# %s\n\n", strings.ReplaceAll(loadErr.Error(), "\n", "\n# "))
		fmt.Fprintln(errOut, "agent: note: no model provider is configured; the comment at the top of the output says how to set one")
	}
	if err := cfg.Write(w); err != nil {
		return err
	}
	if noProvider {
		return nil
	}
	return cfg.MissingKey()
}
