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

// commandTool is the tool whose rules match a command's first words.
const commandTool = "run_command"

// permissions turns the user's [permissions] rules into the loop's. Paths
// are matched as the file tools resolve them under root, so "docs/../x"
// or a symlink into a denied folder is judged by where the write lands.
func permissions(cfg config.Config, root *fsedit.Root) (agent.Permissions, error) {
	var p agent.Permissions
	for _, l := range []struct {
		name  string
		rules []string
		dst   *[]agent.Rule
	}{{"allow", cfg.Permissions.Allow, &p.Allow}, {"deny", cfg.Permissions.Deny, &p.Deny}} {
		for _, text := range l.rules {
			r, err := permissionRule(config.ParseRule(text), root, l.name == "deny")
			if err != nil {
				return p, cfg.PermissionError(l.name, text, err.Error())
			}
			*l.dst = append(*l.dst, r)
		}
	}
	return p, nil
}

func permissionRule(pr config.PermissionRule, root *fsedit.Root, deny bool) (agent.Rule, error) {
	if pr.Tool == commandTool {
		words := strings.Fields(pr.Pattern)
		return agent.Rule{Text: pr.Text, Covers: func(q agent.Question) bool {
			cmd, _ := q.Input.Values["command"].(string)
			return q.Tool.Name == commandTool && commandMatches(cmd, words, deny)
		}}, nil
	}
	if pr.Tool != "" && pathParam(pr.Tool) == "" {
		return agent.Rule{}, fmt.Errorf("%s is not a tool rules apply to: use write_file, %s or %s, or a glob alone for every file write", pr.Tool, audio.Name, commandTool)
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

// shellMeta are the characters that join or wrap commands in one line
// (as in tools/shell): an allow rule never covers a line holding one,
// while a deny rule covers the line when any of its pieces starts with
// the rule's words.
const shellMeta = ";&|`$><()\\\n\r"

func commandMatches(cmd string, words []string, deny bool) bool {
	if !deny {
		return !strings.ContainsAny(cmd, shellMeta) && startsWith(strings.Fields(cmd), words)
	}
	// A deny rule also looks inside quotes (sh -c 'git push') and through
	// quotes around words ('git' push).
	split := func(s, seps string) []string {
		return strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(seps, r) })
	}
	pieces := split(cmd, shellMeta+`'"`)
	pieces = append(pieces, split(strings.NewReplacer(`'`, "", `"`, "").Replace(cmd), shellMeta)...)
	for _, piece := range pieces {
		if f := strings.Fields(piece); startsWith(f, words) || startsWith(commandWords(f), words) {
			return true
		}
	}
	return false
}

// commandWords are a command's words from the program on, for a deny
// rule: without leading variable assignments (FOO=1 git push), wrappers
// that run the rest (env, command, nohup...) and the program's folder
// (/usr/bin/git push), which change how a command starts, not what it
// does.
func commandWords(w []string) []string {
	for len(w) > 0 {
		switch {
		case isAssignment(w[0]):
			w = w[1:]
		case slices.Contains(commandWrappers, w[0]):
			w = w[1:]
			for len(w) > 0 && strings.HasPrefix(w[0], "-") {
				w = w[1:]
			}
		case strings.Contains(w[0], "/") && path.Base(w[0]) != w[0]:
			w = append([]string{path.Base(w[0])}, w[1:]...)
		default:
			return w
		}
	}
	return w
}

// commandWrappers run the command that follows them.
var commandWrappers = []string{"env", "command", "exec", "nohup", "time", "nice", "sudo", "builtin"}

func isAssignment(word string) bool {
	name, _, ok := strings.Cut(word, "=")
	if !ok || name == "" {
		return false
	}
	for i, c := range name {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func startsWith(have, prefix []string) bool {
	if len(prefix) == 0 || len(prefix) > len(have) {
		return false
	}
	for i := range prefix {
		if have[i] != prefix[i] {
			return false
		}
	}
	return true
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
