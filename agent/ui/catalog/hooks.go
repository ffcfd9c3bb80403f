package catalog

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/agentcli/agent/agent/hooks"
	"github.com/agentcli/agent/internal/termtext"
)

// Hooks prints the table of agent hooks: each configured hook with its
// event, matcher, command, time limit and format, and where it comes
// from (your config, or the project's, run in the sandbox); then the
// hooks of an untrusted project, which do not run (pending). Paths under
// home are shown with ~. A project's command is its author's text: shown
// escaped.
func Hooks(w io.Writer, list, pending []hooks.Hook, home string) error {
	if len(list)+len(pending) == 0 {
		_, err := fmt.Fprintln(w, "No hooks. A hook is a [[hooks.EVENT]] table of config.toml, with a command to run at that step of the agent's work (see docs/hooks.md).")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "EVENT\tMATCHER\tCOMMAND\tTIMEOUT\tFORMAT\tFROM")
	row := func(h hooks.Hook, from string) {
		matcher, format, timeout := h.Matcher, "agent", hooks.DefaultTimeout.String()
		switch {
		case matcher == "" && h.Event.HasTool():
			matcher = "(every tool)"
		case matcher == "":
			matcher = "-"
		}
		if h.Claude {
			format = "claude"
		}
		if h.Timeout > 0 {
			timeout = h.Timeout.String()
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", h.Event, termtext.Escape(matcher), termtext.Escape(oneLine(h.Command)), timeout, format, termtext.Escape(from))
	}
	for _, h := range list {
		from := "you: " + tilde(h.Origin, home)
		if h.Project {
			from = "the project, in the sandbox: " + tilde(h.Origin, home)
		}
		row(h, from)
	}
	for _, h := range pending {
		row(h, "the project, not run until you trust it: "+tilde(h.Origin, home))
	}
	return tw.Flush()
}

// tilde shows path under home as ~/...
func tilde(path, home string) string {
	if home != "" {
		if rest, ok := strings.CutPrefix(path, home+string(filepath.Separator)); ok {
			return "~/" + filepath.ToSlash(rest)
		}
	}
	return path
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
