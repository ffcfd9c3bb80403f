// Package subagents finds the sub-agents a project and its user define:
// markdown files in the project's .agent/agents, .agents/agents and
// .claude/agents and in the user's own agents folder, whose front matter
// names and describes one (name, description, tools, model, max_turns)
// and whose body is its instructions, the format Claude Code reads. The
// task tool (agent/app) runs them.
//
// A project's agent files are its text, like AGENTS.md: a cloned
// repository writes them. They are read without asking whether the
// project is trusted, through the sandbox's readers (a symlink judged by
// where it lands, never a secret file, a FIFO or a device), each bounded
// in size; a file that is not a valid agent is left out with one
// Problem. What would cost the person more is applied only once the
// project is trusted: its model, and turns beyond the default.
package subagents

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/sandbox"
)

// ProjectFolders are the project's agents folders, in precedence order:
// an agent found in an earlier one hides a same-named agent in a later
// one, as for skills. The agent's own folder comes first, then the
// cross-agent one, then Claude Code's, so its agents work unchanged.
var ProjectFolders = []string{".agent/agents", ".agents/agents", ".claude/agents"}

// The bounds of discovery.
const (
	// maxEntries bounds the files read in one agents folder.
	maxEntries = 100
	// maxFileBytes bounds one agent file: front matter and instructions.
	maxFileBytes = 64 << 10
)

// Origin says where an agent comes from.
type Origin string

// The origins of agents.
const (
	Builtin Origin = "built-in"
	Project Origin = "project"
	User    Origin = "user"
)

// Agent is one sub-agent: what its file says, checked, with the trust
// rules applied.
type Agent struct {
	Name        string
	Description string
	// Tools are the tools it may use, by our names, each once: the
	// file's list (Claude Code's names mapped), or ReadOnlyTools.
	Tools []string
	// Model is the model of the configured provider it runs on; "" is
	// the conversation's own.
	Model string
	// MaxTurns bounds its model calls.
	MaxTurns int
	// Instructions are its role: the file's body.
	Instructions string
	Origin       Origin
	// File is where it was found: project-relative for a project's
	// (.claude/agents/reviewer.md), absolute for the user's, "" for a
	// built-in one.
	File string
	// Ignored are what of the file was not applied, one phrase each
	// ("model opus: the project is not trusted").
	Ignored []string
}

// Problem is an agent file left out, and why.
type Problem struct {
	// File is the file, as Agent.File names it.
	File string
	Err  error
}

// String is the problem's warning line.
func (p Problem) String() string {
	return fmt.Sprintf("agent file %s skipped: %v", p.File, p.Err)
}

// Sources say where to look for agents.
type Sources struct {
	// Builtin are the agent's own, found first: no file hides them.
	Builtin []Agent
	// Project is the project's sandbox; nil for no project agents.
	Project *sandbox.Root
	// Trusted says the person trusts the project: its files' models
	// and turns beyond DefaultMaxTurns apply.
	Trusted bool
	// UserDir is the user's agents folder ($XDG_CONFIG_HOME/agent/agents);
	// "" for none.
	UserDir string
}

// Set is what Discover found.
type Set struct {
	// Agents are the agents found, each name once: the built-in ones,
	// the project's, then the user's, each by folder precedence and
	// then by file name.
	Agents []Agent
	// Shadowed are agents hidden by a same-named one found before them.
	Shadowed []Agent
	// Problems are the files left out, one each.
	Problems []Problem
}

// Discover finds the agents of src. It never fails: a folder that cannot
// be read or a file that is not a valid agent is a Problem, and a missing
// folder is no agents.
func Discover(src Sources) *Set {
	s := &Set{}
	for _, a := range src.Builtin {
		s.add(a)
	}
	if src.Project != nil {
		for _, folder := range ProjectFolders {
			s.scan(folder, src, false)
		}
	}
	if src.UserDir != "" {
		s.scan(src.UserDir, src, true)
	}
	return s
}

// Find returns the agent called name.
func (s *Set) Find(name string) (Agent, bool) {
	for _, a := range s.Agents {
		if a.Name == name {
			return a, true
		}
	}
	return Agent{}, false
}

// Names are the agents' names, in order.
func (s *Set) Names() []string {
	names := make([]string, len(s.Agents))
	for i, a := range s.Agents {
		names[i] = a.Name
	}
	return names
}

func (s *Set) add(a Agent) {
	if _, dup := s.Find(a.Name); dup {
		s.Shadowed = append(s.Shadowed, a)
		return
	}
	s.Agents = append(s.Agents, a)
}

// scan reads the agents folder folder: the project's, or the user's.
func (s *Set) scan(folder string, src Sources, user bool) {
	var (
		ents []fs.DirEntry
		err  error
	)
	if user {
		ents, err = sandbox.ListUserDir(folder, maxEntries)
	} else {
		ents, err = src.Project.ListAgentsDir(folder, maxEntries)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil {
		s.Problems = append(s.Problems, Problem{File: folder, Err: err})
		return
	}
	if len(ents) > maxEntries {
		s.Problems = append(s.Problems, Problem{File: folder, Err: fmt.Errorf("it holds more than %d entries; only %d are read", maxEntries, maxEntries)})
		ents = ents[:maxEntries]
	}
	for _, e := range ents {
		name := e.Name()
		if strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".md") || e.IsDir() {
			continue // a folder, .DS_Store: not agents
		}
		file := path.Join(folder, name)
		if user {
			file = filepath.Join(folder, name)
		}
		a, err := readAgent(file, src, user)
		switch {
		case err == nil:
			s.add(a)
		case errors.Is(err, fs.ErrNotExist):
			// Gone since the listing.
		default:
			s.Problems = append(s.Problems, Problem{File: file, Err: err})
		}
	}
}

// readAgent reads and checks the agent file file.
func readAgent(file string, src Sources, user bool) (Agent, error) {
	var (
		data []byte
		size int64
		err  error
	)
	if user {
		data, size, err = sandbox.ReadUserText(file, maxFileBytes)
	} else {
		data, size, err = src.Project.ReadAgentFile(file, maxFileBytes)
	}
	switch {
	case err != nil && sandbox.RefusalCode(err) == tools.CodeFileNotFound:
		return Agent{}, fs.ErrNotExist
	case err != nil:
		return Agent{}, err
	case size > int64(len(data)):
		return Agent{}, fmt.Errorf("it is %d bytes, over the %d KiB an agent file may take", size, maxFileBytes>>10)
	}
	a, err := Parse(string(data))
	if err != nil {
		return Agent{}, err
	}
	a.File, a.Origin = file, Project
	if user {
		a.Origin = User
	}
	if !user && !src.Trusted {
		a.untrusted()
	}
	return a, nil
}

// untrusted drops what an untrusted project's file may not decide: a
// model (which may cost more than the person's) and more turns than the
// default.
func (a *Agent) untrusted() {
	if a.Model != "" {
		a.Ignored = append(a.Ignored, "model "+a.Model+": the project is not trusted")
		a.Model = ""
	}
	if a.MaxTurns > DefaultMaxTurns {
		a.Ignored = append(a.Ignored, fmt.Sprintf("max_turns %d: the project is not trusted, so at most %d", a.MaxTurns, DefaultMaxTurns))
		a.MaxTurns = DefaultMaxTurns
	}
}
