package lsp

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentcli/agent/internal/atomicfile"
	"github.com/agentcli/agent/internal/termtext"
	"github.com/agentcli/agent/tools"
)

// Status is one language server as agent lsp and /lsp show it.
type Status struct {
	Name      string   `json:"name"`
	Program   string   `json:"program,omitempty"`
	FileTypes []string `json:"filetypes,omitempty"`
	// Root is its workspace folder, project-relative ("." the project);
	// "" for a server not started.
	Root string `json:"root,omitempty"`
	// State is "running", "starting", "not started", "stopped: why",
	// "not found: why", "off".
	State    string `json:"state"`
	Restarts int    `json:"restarts,omitempty"`
	// Last is what its last check said.
	Last *tools.Diagnostics `json:"last,omitempty"`
}

// Status lists the servers: those started, each with its state and its
// last check; those that may start and have not; those that cannot.
func (m *Manager) Status() []Status {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []Status
	started := map[string]bool{}
	for _, k := range m.order {
		in := m.insts[k]
		started[in.spec.Name] = true
		st := Status{Name: in.spec.Name, Program: in.spec.Command, FileTypes: in.spec.FileTypes, Root: m.rel(in.root), Restarts: in.restarts, Last: in.last}
		if st.Root == "" {
			st.Root = "."
		}
		switch {
		case in.gaveUp != nil:
			st.State = "stopped: " + oneLine(in.gaveUp.Error(), 300)
		case in.srv == nil:
			st.State = "not started"
		case in.srv.err() != nil:
			st.State = "stopped: " + oneLine(in.srv.err().Error(), 300)
		case !isClosed(in.srv.ready):
			st.State = "starting"
		default:
			st.State = "running"
		}
		if m.closed {
			st.State = "ended with the conversation"
		}
		out = append(out, st)
	}
	for _, s := range m.o.Servers {
		if !started[s.Name] {
			out = append(out, Status{Name: s.Name, Program: s.Command, FileTypes: s.FileTypes, State: "not started"})
		}
	}
	for _, s := range Known {
		if why, ok := m.o.Missing[s.Name]; ok {
			out = append(out, Status{Name: s.Name, FileTypes: s.FileTypes, State: "not found: " + why})
		}
	}
	return out
}

func isClosed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// statusFile is what a conversation leaves for agent lsp: its servers
// and their last checks.
type statusFile struct {
	Time    time.Time `json:"time"`
	Servers []Status  `json:"servers"`
}

// saveStatus writes Status to Options.StatusFile, when set.
func (m *Manager) saveStatus() {
	if m.o.StatusFile == "" {
		return
	}
	if m.o.Prepare != nil && m.o.Prepare() != nil {
		return
	}
	data, err := json.MarshalIndent(statusFile{Time: time.Now().UTC(), Servers: m.Status()}, "", "  ")
	if err != nil {
		return
	}
	atomicfile.WriteFile(m.o.StatusFile, 0o600, func(w io.Writer) error {
		_, err := w.Write(append(data, '\n'))
		return err
	})
}

// LastStatus reads what the last conversation in a project left in its
// status file: the servers it ran and their last checks, and when; none
// when it left nothing readable.
func LastStatus(path string) ([]Status, time.Time) {
	data, err := atomicfile.ReadSmall(path, 1<<20)
	if err != nil {
		return nil, time.Time{}
	}
	var f statusFile
	if json.Unmarshal(data, &f) != nil {
		return nil, time.Time{}
	}
	return f.Servers, f.Time
}

// WriteStatus prints servers for a person: one line each with its
// state, and under it the errors of its last check.
func WriteStatus(w io.Writer, servers []Status) {
	if len(servers) == 0 {
		fmt.Fprintln(w, "no language servers: [lsp] enabled = false")
		return
	}
	for _, s := range servers {
		line := s.Name + "  " + s.State
		if s.Root != "" && s.Root != "." {
			line += "  (" + s.Root + ")"
		}
		if s.Restarts > 0 {
			line += fmt.Sprintf("  restarted %d×", s.Restarts)
		}
		if len(s.FileTypes) > 0 {
			line += "  " + strings.Join(s.FileTypes, ", ")
		}
		fmt.Fprintln(w, termtext.Escape(line))
		if s.Program != "" {
			fmt.Fprintf(w, "  %s\n", termtext.Escape(s.Program))
		}
		if d := s.Last; d != nil && d.Summary() != "" {
			fmt.Fprintf(w, "  last check: %s in %s\n", termtext.Escape(d.Summary()), termtext.Escape(strings.Join(d.Files, ", ")))
			for _, it := range d.Items {
				fmt.Fprintf(w, "    %s\n", termtext.Line(it.String(), 300))
			}
		}
	}
}

// StatusPath is the file in the project folder root where a
// conversation leaves its servers' status for agent lsp.
func StatusPath(root string) string { return filepath.Join(root, ".agent", "lsp.json") }
