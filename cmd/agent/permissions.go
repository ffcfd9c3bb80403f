package main

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/xmlcall"
	"github.com/agentcli/agent/tools/audio"
	"github.com/agentcli/agent/tools/fsedit"
	"github.com/agentcli/agent/tools/shell/cmdline"
)

// pathParam is the parameter naming the file of a tool that writes
// project files ("" for other tools): a bare glob rule covers each of
// them.
func pathParam(tool string) string {
	switch tool {
	case "write_file":
		return "file_path"
	case audio.Name:
		return "output_path"
	}
	return ""
}

// commandTool is the tool whose rules match a command as a shell reads
// it (tools/shell/cmdline).
const commandTool = "run_command"

// noteWriteTools are the note tools that change notes: a rule naming
// note tools ("note_delete", "note_*") must name one of them.
var noteWriteTools = []string{"note_create", "note_update", "note_delete"}

// permissions turns the user's [permissions] rules into the loop's. Paths
// are matched as the file tools resolve them under root, so "docs/../x"
// or a symlink into a denied folder is judged by where the write lands.
func permissions(cfg config.Config, root *fsedit.Root) (agent.Permissions, error) {
	var p agent.Permissions
	var allowCommands []cmdline.Rule // every run_command allow rule, which cover a line together
	for _, l := range []struct {
		name  string
		rules []string
		dst   *[]agent.Rule
	}{{"allow", cfg.Permissions.Allow, &p.Allow}, {"deny", cfg.Permissions.Deny, &p.Deny}} {
		for _, text := range l.rules {
			r, err := permissionRule(config.ParseRule(text), root, l.name == "deny", &allowCommands)
			if err != nil {
				return p, cfg.PermissionError(l.name, text, err.Error())
			}
			*l.dst = append(*l.dst, r)
		}
	}
	return p, nil
}

func permissionRule(pr config.PermissionRule, root *fsedit.Root, deny bool, allowCommands *[]cmdline.Rule) (agent.Rule, error) {
	if pr.Tool == commandTool {
		return commandRule(pr, deny, allowCommands)
	}
	if pr.Tool == "" && strings.HasPrefix(pr.Pattern, "note_") && !strings.ContainsAny(pr.Pattern, "./") {
		return noteRule(pr) // a tool name, not a file glob such as note_*.md
	}
	if pr.Tool != "" && pathParam(pr.Tool) == "" {
		return agent.Rule{}, fmt.Errorf("%s is not a tool rules apply to: use write_file, %s or %s, a note tool alone (note_delete, note_*), or a glob alone for every file write", pr.Tool, audio.Name, commandTool)
	}
	if err := projectRelative(pr.Pattern); err != nil {
		return agent.Rule{}, err
	}
	g, err := fsedit.ParseGlob(pr.Pattern)
	if err != nil {
		return agent.Rule{}, fmt.Errorf("%v: write a glob like \"docs/**\" or \"*.md\"", err)
	}
	return agent.Rule{Text: pr.Text, Covers: func(q agent.Question) bool {
		param := pathParam(q.Tool.Name)
		if param == "" || pr.Tool != "" && pr.Tool != q.Tool.Name {
			return false
		}
		p, _ := q.Input.Values[param].(string)
		rel, ok := root.Canonical(p)
		return ok && g.Match(rel)
	}}, nil
}

// commandRule is a run_command rule, read as a command line
// (tools/shell/cmdline). A deny rule covers a call when it covers one of
// the programs the line runs, and is unsure of it when what runs cannot
// be known without running it. The allow rules cover a line together:
// every program must start with one of them, and nothing may be decided
// at run time; the rule named is the one of the first program.
func commandRule(pr config.PermissionRule, deny bool, allowCommands *[]cmdline.Rule) (agent.Rule, error) {
	cr, err := cmdline.ParseRule(pr.Pattern)
	if err != nil {
		return agent.Rule{}, err
	}
	command := func(q agent.Question) (string, bool) {
		cmd, _ := q.Input.Values["command"].(string)
		return cmd, q.Tool.Name == commandTool
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
	index := len(*allowCommands)
	*allowCommands = append(*allowCommands, cr)
	return agent.Rule{Text: pr.Text, Covers: func(q agent.Question) bool {
		cmd, ok := command(q)
		return ok && cmdline.Allowed(cmdline.Parse(cmd), *allowCommands) == index
	}}, nil
}

// noteRule is a rule naming note tools: "note_delete", or a glob of
// names such as "note_*" (every change to notes).
func noteRule(pr config.PermissionRule) (agent.Rule, error) {
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

// ruleActivity is the activity line of a call a permission rule let run
// unasked: `write_file docs/a.md: allowed by permissions.allow "docs/**"`.
func ruleActivity(c *xmlcall.Call, rule string) string {
	what := c.Name
	param := pathParam(c.Name)
	if c.Name == commandTool {
		param = "command"
	}
	if v := c.Args()[param]; param != "" && v != "" {
		what += " " + oneLineText(v)
	}
	return what + ": allowed by " + rule
}

// oneLineText is s with its runs of white space made single spaces.
func oneLineText(s string) string { return strings.Join(strings.Fields(s), " ") }
