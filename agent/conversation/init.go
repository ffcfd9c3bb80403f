package conversation

import (
	"context"
	_ "embed"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/agentcli/agent/prompt"
	"github.com/agentcli/agent/tools"
)

//go:embed init.md
var initMessage string

// InitFile is the instructions file /init drafts.
const InitFile = "AGENTS.md"

// writeTool is the file tool /init writes with.
const writeTool = "write_file"

// PrepareInit makes the next Run /init's turn, and returns the message
// that starts it: the model looks at the project with the tools that
// change nothing, then writes AGENTS.md, or improves the one there, with
// write_file, asked about like any write (the diff shown, the old
// content backed up); in that turn no other tool runs. The chat's /init
// and agent init both send it.
func (c *Conversation) PrepareInit() string {
	c.initNext = true
	return strings.Replace(initMessage, "{{state}}", initState(c.dir), 1)
}

// initCommand is /init: the chat sends the message PrepareInit returns.
func (c *Conversation) initCommand(context.Context, string) (Reply, error) {
	return Reply{Send: c.PrepareInit()}, nil
}

// initState tells the model whether AGENTS.md is there to improve, and
// which other instructions files to carry over.
func initState(dir string) string {
	exists := func(name string) bool {
		_, err := os.Lstat(filepath.Join(dir, name))
		return err == nil
	}
	s := "There is no AGENTS.md yet: create it (operation_type create)."
	if exists(InitFile) {
		s = "AGENTS.md exists: read it whole first, then improve it, not replace it: keep what is still right and its owner's rules and words, correct what is stale, add what is missing (operation_type rewrite, or replace for a small change)."
	}
	for _, name := range prompt.InstructionFiles {
		if name != InitFile && exists(name) {
			s += " " + name + " holds instructions too: read it and carry over what applies."
		}
	}
	return s
}

// initTools is reg as /init's turn offers it: the tools that change
// nothing as they are, write_file for AGENTS.md only, and every other
// tool refused without asking anyone.
func initTools(reg *tools.Registry) *tools.Registry {
	out := tools.NewRegistry()
	out.Timeout = reg.Timeout
	for _, t := range reg.Tools() {
		def := t.Definition()
		switch {
		case def.Name == writeTool:
			t = initWrite{t}
		case def.Writes || def.RunsPrograms():
			def.Writes = false // refused here, nobody is asked
			t = notInInit{def}
		}
		out.Add(t)
	}
	return out
}

// initWrite is write_file in /init's turn: AGENTS.md at the project's
// top, nothing else.
type initWrite struct{ tools.Tool }

func (w initWrite) Preview(ctx context.Context, in tools.Input) (tools.Preview, *tools.Result, error) {
	if res := w.refuse(in); res != nil {
		return tools.Preview{}, res, nil
	}
	if p, ok := w.Tool.(tools.Previewer); ok {
		return p.Preview(ctx, in)
	}
	return tools.Preview{}, nil, nil
}

func (w initWrite) Execute(ctx context.Context, in tools.Input) (tools.Result, error) {
	if res := w.refuse(in); res != nil {
		return *res, nil
	}
	return w.Tool.Execute(ctx, in)
}

// refuse is the model's error for a write of another file.
func (w initWrite) refuse(in tools.Input) *tools.Result {
	p, _ := in.Values["file_path"].(string)
	if path.Clean(filepath.ToSlash(strings.TrimSpace(p))) == InitFile {
		return nil
	}
	res := tools.Errorf(tools.CodePolicyDenied, "%s was not written: /init writes AGENTS.md only; put what belongs elsewhere into AGENTS.md or your answer", p)
	return &res
}

// notInInit is a tool that changes something or runs a program, in
// /init's turn: never run.
type notInInit struct{ def tools.Definition }

func (t notInInit) Definition() tools.Definition { return t.def }

func (t notInInit) Execute(context.Context, tools.Input) (tools.Result, error) {
	return tools.Errorf(tools.CodePolicyDenied, "%s was not run: /init only looks at the project and writes AGENTS.md; say in AGENTS.md or your answer what should be run or changed", t.def.Name), nil
}
