package conversation

import (
	"errors"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/fsedit"
	"github.com/agentcli/agent/tools/jobs"
	"github.com/agentcli/agent/tools/lsp"
	"github.com/agentcli/agent/tools/notes"
	"github.com/agentcli/agent/tools/programs"
)

// ToolInput is what building a project's tools takes.
type ToolInput struct {
	// Root is the project folder, absolute.
	Root string
	Cfg  config.Config
	// Files is the file tools' session: what the model read, kept with
	// the conversation.
	Files *fsedit.Session
	// Programs finds the helper programs (bwrap, espeak-ng, MCP
	// servers).
	Programs *programs.Resolver
	// NoMCP starts no MCP server: agent serve never offers their tools.
	NoMCP bool
}

// ToolSet is a project's tool registry and what must be closed with it
// (stores, MCP clients).
type ToolSet struct {
	Reg *tools.Registry
	// Essential names the tools the small-window prompt describes (the
	// file tools and run_command); the others it only names. Empty means
	// every tool.
	Essential []string
	Closers   []func() error
	// Notes is the store behind the note tools; nil when they are off.
	Notes notes.Store
	// Jobs are the background jobs of run_command; nil without it.
	Jobs *jobs.Manager
	// LSP are the language servers (/lsp lists them); nil when off.
	LSP *lsp.Manager
	// Link, when set, is called with the conversation once it is built
	// (the explore tool runs in it).
	Link func(*Conversation)
	// LeftOut are the definitions of the tools the agent has but did not
	// offer here (no speech engine, the notes off), which the user's
	// rules may still name.
	LeftOut []tools.Definition
}

// NewToolSet is a set of exactly reg's tools, every one described in the
// prompt (tests, and tools built by hand).
func NewToolSet(reg *tools.Registry) *ToolSet { return &ToolSet{Reg: reg} }

// Registry returns the set's registry.
func (s *ToolSet) Registry() *tools.Registry { return s.Reg }

// Close closes everything the set opened, the last opened first.
func (s *ToolSet) Close() error {
	var errs []error
	for i := len(s.Closers) - 1; i >= 0; i-- {
		errs = append(errs, s.Closers[i]())
	}
	s.Closers = nil
	return errors.Join(errs...)
}

// notices are the events of the set's background jobs for the loop; nil
// without jobs.
func (s *ToolSet) notices() agent.Notices {
	if s.Jobs == nil {
		return nil
	}
	return s.Jobs
}

// Defs are the definitions of every tool the set knows, offered or not.
func (s *ToolSet) Defs() []tools.Definition {
	var out []tools.Definition
	for _, t := range s.Reg.Tools() {
		out = append(out, t.Definition())
	}
	return append(out, s.LeftOut...)
}
