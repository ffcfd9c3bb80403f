package run

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/internal/termtext"
)

// AskTrust asks on a terminal whether to trust the project, showing
// exactly the settings that trusting it would apply, each whole (long
// blanks counted, see termtext.ShowBlanks).
func AskTrust(ctx context.Context, in io.Reader, out io.Writer, root string, settings []config.PendingSetting) (bool, error) {
	fmt.Fprintf(out, "\nThis project (%s) has settings that can send your data or keys elsewhere, run programs, or raise your limits:\n", termtext.Escape(root))
	for _, s := range settings {
		fmt.Fprintf(out, "  %s\n", strings.ReplaceAll(termtext.Escape(termtext.ShowBlanks(s.Shown)), "\n", "\n    "))
	}
	fmt.Fprint(out, "They apply only if you trust the project. Trust it? [y/N] ")
	t := NewTerminalAsker(in, out, false)
	line, err := t.ReadLine(ctx)
	if err != nil && line == "" {
		fmt.Fprintln(out)
		if errors.Is(err, io.EOF) {
			return false, nil
		}
		return false, err
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true, nil
	}
	return false, nil
}

// SayIgnored tells on w that setting ig of a project's file is ignored:
// only the person's own config file may set it.
func SayIgnored(w io.Writer, ig config.Ignored) {
	fmt.Fprintf(w, "agent: ignoring %s in %s: only your own config file may set it\n", termtext.Escape(ig.Key), termtext.Escape(ig.File))
}

// SayUntrusted tells on w the project's settings ignored because it is
// not trusted, and how to trust it.
func SayUntrusted(w io.Writer, pending []config.PendingSetting) {
	var names []string
	for _, p := range pending {
		names = append(names, p.Name)
	}
	fmt.Fprintf(w, "agent: the project is not trusted, so these of its settings are ignored: %s (trust it with --trust, or answer yes when asked on a terminal)\n",
		termtext.Escape(strings.Join(names, "; ")))
}
