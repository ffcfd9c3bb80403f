package app

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/sandbox"
	"github.com/agentcli/agent/tools/shell/cmdline"
)

// permissions turns the user's [permissions] rules into the loop's. What
// a rule may name comes from the tools' own definitions (defs: every tool
// the agent knows, offered in this conversation or not): a path glob
// covers the project paths (tools.Param.Path) of the tools that write, a
// command rule the command line of a tool that runs programs
// (tools.Param.Command), a note rule the note tools that write. Paths
// are matched as the file tools resolve them under root, so "docs/../x"
// or a symlink into a denied folder is judged by where the write lands.
func permissions(cfg config.Config, root *sandbox.Root, defs []tools.Definition) (agent.Permissions, error) {
	var p agent.Permissions
	k := ruleKinds{defs: defs, allowCommands: map[string][]cmdline.Rule{}}
	for _, l := range []struct {
		name  string
		rules []string
		dst   *[]agent.Rule
	}{{"allow", cfg.Permissions.Allow, &p.Allow}, {"deny", cfg.Permissions.Deny, &p.Deny}} {
		for _, text := range l.rules {
			r, err := k.rule(config.ParseRule(text), root, l.name == "deny")
			if err != nil {
				return p, cfg.PermissionError(l.name, text, err.Error())
			}
			*l.dst = append(*l.dst, r)
		}
	}
	return p, nil
}

// ruleKinds is what the rules know of the tools.
type ruleKinds struct {
	defs []tools.Definition
	// allowCommands are each command tool's allow rules, which cover a
	// line together.
	allowCommands map[string][]cmdline.Rule
}

func (k *ruleKinds) find(name string) (tools.Definition, bool) {
	i := slices.IndexFunc(k.defs, func(d tools.Definition) bool { return d.Name == name })
	if i < 0 {
		return tools.Definition{}, false
	}
	return k.defs[i], true
}

// pathWriter is a tool a path rule applies to: it writes, and names the
// project paths it writes.
func pathWriter(d tools.Definition) bool { return d.Writes && len(d.PathParams()) > 0 }

// named lists the tools a "tool:pattern" rule may name, as the error
// for one that names another says them: "write_file, audio_generation
// or run_command".
func (k *ruleKinds) named() string {
	var names []string
	for _, d := range k.defs {
		if pathWriter(d) {
			names = append(names, d.Name)
		}
	}
	for _, d := range k.defs {
		if d.RunsPrograms() {
			names = append(names, d.Name)
		}
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

func (k *ruleKinds) rule(pr config.PermissionRule, root *sandbox.Root, deny bool) (agent.Rule, error) {
	def, known := k.find(pr.Tool)
	if known && def.RunsPrograms() {
		return k.commandRule(pr, deny)
	}
	if pr.Tool == "" && strings.HasPrefix(pr.Pattern, "note_") && !strings.ContainsAny(pr.Pattern, "./") {
		return k.noteRule(pr) // a tool name, not a file glob such as note_*.md
	}
	if pr.Tool != "" && !(known && pathWriter(def)) {
		return agent.Rule{}, fmt.Errorf("%s is not a tool rules apply to: use %s, a note tool alone (note_delete, note_*), or a glob alone for every file write", pr.Tool, k.named())
	}
	if err := projectRelative(pr.Pattern); err != nil {
		return agent.Rule{}, err
	}
	g, err := sandbox.ParseGlob(pr.Pattern)
	if err != nil {
		return agent.Rule{}, fmt.Errorf("%v: write a glob like \"docs/**\" or \"*.md\"", err)
	}
	return agent.Rule{Text: pr.Text, Covers: func(q agent.Question) bool {
		if pr.Tool != "" && pr.Tool != q.Tool.Name || !pathWriter(q.Tool) {
			return false
		}
		for _, param := range q.Tool.PathParams() {
			p, _ := q.Input.Values[param].(string)
			if rel, ok := root.Canonical(p); ok && g.Match(rel) {
				return true
			}
		}
		return false
	}}, nil
}

// commandRule is a rule of a tool that runs programs (run_command), read
// as a command line (tools/shell/cmdline). A deny rule covers a call when
// it covers one of the programs the line runs, and is unsure of it when
// what runs cannot be known without running it. The allow rules of a
// tool cover a line together: every program must start with one of
// them, and nothing may be decided at run time; the rule named is the
// one of the first program.
func (k *ruleKinds) commandRule(pr config.PermissionRule, deny bool) (agent.Rule, error) {
	cr, err := cmdline.ParseRule(pr.Pattern)
	if err != nil {
		return agent.Rule{}, err
	}
	command := func(q agent.Question) (string, bool) {
		param := q.Tool.CommandParam()
		if param == "" || q.Tool.Name != pr.Tool {
			return "", false
		}
		cmd, _ := q.Input.Values[param].(string)
		return cmd, true
	}
	if deny {
		judge := func(q agent.Question) (cmdline.Verdict, string) {
			cmd, ok := command(q)
			if !ok {
				return cmdline.NoMatch, ""
			}
			return cr.Judge(cmdline.Parse(cmd))
		}
		return agent.Rule{Text: pr.Text,
			Covers: func(q agent.Question) bool {
				v, _ := judge(q)
				return v == cmdline.Match
			},
			Unsure: func(q agent.Question) string {
				if v, why := judge(q); v == cmdline.Unsure {
					return why
				}
				return ""
			},
		}, nil
	}
	index := len(k.allowCommands[pr.Tool])
	k.allowCommands[pr.Tool] = append(k.allowCommands[pr.Tool], cr)
	return agent.Rule{Text: pr.Text, Covers: func(q agent.Question) bool {
		cmd, ok := command(q)
		return ok && cmdline.Allowed(cmdline.Parse(cmd), k.allowCommands[pr.Tool]) == index
	}}, nil
}

// noteRule is a rule naming note tools: "note_delete", or a glob of
// names such as "note_*" (every change to notes).
func (k *ruleKinds) noteRule(pr config.PermissionRule) (agent.Rule, error) {
	var noteWriteTools []string // the note tools that change notes
	for _, d := range k.defs {
		if d.Writes && strings.HasPrefix(d.Name, "note_") {
			noteWriteTools = append(noteWriteTools, d.Name)
		}
	}
	named := false
	for _, name := range noteWriteTools {
		ok, err := path.Match(pr.Pattern, name)
		if err != nil {
			return agent.Rule{}, fmt.Errorf("bad pattern: write a note tool, like note_delete, or note_* for all")
		}
		named = named || ok
	}
	if !named {
		return agent.Rule{}, fmt.Errorf("%s names no note tool that changes notes: use %s, or note_* for all", pr.Pattern, strings.Join(noteWriteTools, ", "))
	}
	return agent.Rule{Text: pr.Text, Covers: func(q agent.Question) bool {
		ok, _ := path.Match(pr.Pattern, q.Tool.Name)
		return ok && strings.HasPrefix(q.Tool.Name, "note_")
	}}, nil
}

// projectRelative refuses a path rule that could never match the
// project-relative path of a write (an absolute path, "..", a folder
// written "dir/"), so that no rule silently protects nothing.
func projectRelative(pattern string) error {
	if strings.HasPrefix(pattern, "/") || slices.Contains(strings.Split(pattern, "/"), "..") {
		return fmt.Errorf(`a rule is a glob relative to the project, like "migrations/**"; absolute paths and ".." never match`)
	}
	if dir, ok := strings.CutSuffix(pattern, "/"); ok {
		return fmt.Errorf("for everything under a folder write %q", dir+"/**")
	}
	return nil
}
