package run

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/agentcli/agent/internal/termtext"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/sandbox/backup"
)

// Summary is what a run changed and how to take it back: printed on
// stderr in text mode, the "summary" field in json.
type Summary struct {
	Created []string `json:"created"`
	Changed []string `json:"changed"`
	Deleted []string `json:"deleted"`
	// ChangeSets are the backup change sets the run wrote, oldest first.
	ChangeSets []string `json:"change_sets"`
	// Undo is the command that reverts the run, empty when nothing was
	// backed up.
	Undo      string `json:"undo"`
	SessionID string `json:"session_id"`
	// Alerts are what the calls said the person must know (a git
	// repository a command planted, moved away), repeated at the end.
	Alerts []string `json:"alerts,omitempty"`
	// Diagnostics are the language servers' errors (and warnings when
	// asked) in the files the run changed, as each file's last check
	// left them: none once the model fixed what it broke.
	Diagnostics []tools.Diagnostic `json:"diagnostics,omitempty"`
}

// Summarize builds the summary of a run that started at started from the
// backup manifest (the truth about what the file tools wrote) and the
// calls' Changed paths (what other tools report).
func Summarize(out *agent.Outcome, entries []backup.Entry, started time.Time) Summary {
	s := Summary{Created: []string{}, Changed: []string{}, Deleted: []string{}, ChangeSets: []string{}}
	if out == nil {
		return s
	}
	s.SessionID = out.SessionID
	// The first write of a file says whether it existed before the run,
	// the last whether it exists after it.
	type life struct{ before, after bool }
	files := map[string]*life{}
	var order []string
	for _, e := range entries {
		if e.Session != out.SessionID || e.Time.Before(started) {
			continue
		}
		if !slices.Contains(s.ChangeSets, e.ChangeSet) {
			s.ChangeSets = append(s.ChangeSets, e.ChangeSet)
		}
		l, ok := files[e.Path]
		if !ok {
			l = &life{before: e.Existed}
			files[e.Path] = l
			order = append(order, e.Path)
		}
		l.after = e.SHA256After != ""
	}
	left := map[string][]tools.Diagnostic{}
	var checked []string
	for _, c := range out.Calls {
		s.Alerts = append(s.Alerts, c.Result.Alerts...)
		if c.Result.IsError() {
			continue
		}
		if d := c.Result.Diagnostics; d != nil {
			for _, f := range d.Files {
				if _, ok := left[f]; !ok {
					checked = append(checked, f)
				}
				left[f] = slices.DeleteFunc(slices.Clone(d.Items), func(it tools.Diagnostic) bool { return it.Path != f })
			}
		}
		for _, p := range c.Result.Changed {
			l, ok := files[p]
			if !ok {
				l = &life{before: !slices.Contains(c.Result.Created, p), after: true}
				files[p] = l
				order = append(order, p)
			}
			// A later call's scan says whether it is still there.
			if slices.Contains(c.Result.Deleted, p) {
				l.after = false
			} else if slices.Contains(c.Result.Created, p) {
				l.after = true
			}
		}
	}
	for _, p := range order {
		switch l := files[p]; {
		case !l.before && l.after:
			s.Created = append(s.Created, p)
		case l.before && !l.after:
			s.Deleted = append(s.Deleted, p)
		case l.before && l.after:
			s.Changed = append(s.Changed, p)
		}
	}
	for _, f := range checked {
		s.Diagnostics = append(s.Diagnostics, left[f]...)
	}
	if len(s.ChangeSets) > 0 {
		s.Undo = "agent undo"
	}
	return s
}

// print writes the summary for a person, nothing when the run wrote
// nothing but the session line.
func (s Summary) print(w io.Writer) {
	var parts []string
	for _, f := range []struct {
		what  string
		paths []string
	}{{"created", s.Created}, {"modified", s.Changed}, {"deleted", s.Deleted}} {
		if len(f.paths) > 0 {
			parts = append(parts, fmt.Sprintf("%s %s", f.what, strings.Join(f.paths, ", ")))
		}
	}
	if len(parts) > 0 {
		fmt.Fprintf(w, "agent: %s\n", termtext.Escape(strings.Join(parts, "; ")))
	}
	for _, a := range s.Alerts {
		fmt.Fprintf(w, "agent: warning: %s\n", termtext.Escape(a))
	}
	if n := len(s.Diagnostics); n > 0 {
		fmt.Fprintf(w, "agent: the language servers report %d left:\n", n)
		for _, d := range s.Diagnostics {
			fmt.Fprintf(w, "  %s\n", termtext.Line(d.String(), 300))
		}
	}
	if len(s.ChangeSets) > 0 {
		fmt.Fprintf(w, "agent: change set %s; undo with: %s\n", termtext.Escape(strings.Join(s.ChangeSets, ", ")), s.Undo)
	}
	if s.SessionID != "" {
		fmt.Fprintf(w, "agent: session %s (continue with --continue or --session %s)\n", termtext.Escape(s.SessionID), termtext.Escape(s.SessionID))
	}
}
