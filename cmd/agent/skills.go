package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/agentcli/agent/prompt"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/fsedit"
	"github.com/agentcli/agent/tools/skills"
)

// findSkills discovers the skills of the project of files and of the
// user whose environment is env ($XDG_CONFIG_HOME/agent/skills).
func findSkills(files *fsedit.Root, env map[string]string) *skills.Set {
	src := skills.Sources{Project: files}
	if dir := userConfigDir(env); dir != "" {
		src.UserDir = filepath.Join(dir, "skills")
	}
	return skills.Discover(src)
}

// skillTool is the skill tool of a conversation, over the skills found
// now; nil when there is none to offer. Each skill left out is one
// warning line naming its folder.
func skillTool(b toolBuild) tools.Tool {
	root := b.files.Root()
	set := findSkills(root, b.env)
	if b.warn != nil {
		for _, p := range set.Problems {
			b.warn(p.String())
		}
	}
	if t := set.Tool(root.Options().MaxReadBytes); t != nil {
		return t
	}
	return nil
}

// skillSet returns the skills the registry's skill tool loads; nil when
// it has none.
func skillSet(reg *tools.Registry) *skills.Set {
	t, ok := reg.Lookup(skills.ToolName)
	if !ok {
		return nil
	}
	if st, ok := t.(*skills.Tool); ok {
		return st.Set()
	}
	return nil
}

// skillCatalog is the prompt's catalog of skills: those the registry's
// skill tool offers, in its order.
func skillCatalog(reg *tools.Registry) []prompt.Skill {
	set := skillSet(reg)
	if set == nil {
		return nil
	}
	var out []prompt.Skill
	for _, sk := range set.Offered() {
		out = append(out, prompt.Skill{Name: sk.Name, Description: sk.Description})
	}
	return out
}

func newSkillsCmd(d *factory) *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:   "skills",
		Short: "List the skills the model can load",
		Long: `skills lists the skills found for the project: folders with a SKILL.md in the
project's .agent/skills, .agents/skills and .claude/skills, and in the user's
$XDG_CONFIG_HOME/agent/skills. Each shows its name, where it was found and its
description. A skill hidden by a same-named one found first is marked
shadowed; one left out (its front matter is not valid, or it leads out of the
project) is a warning on stderr.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			root, err := projectFolder(dir)
			if err != nil {
				return err
			}
			cfg, err := d.localConfig(root)
			if err != nil {
				return err
			}
			files := d.fileRoot(root, cfg)
			defer files.Close()
			env := d.environ()
			set := findSkills(files, env)
			for _, p := range set.Problems {
				d.warn(p.String())
			}
			return writeSkills(d.io.Out, set, env["HOME"])
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "project folder (default: the current folder)")
	return cmd
}

// writeSkills prints the table of agent skills.
func writeSkills(w io.Writer, set *skills.Set, home string) error {
	if len(set.Skills)+len(set.Shadowed) == 0 {
		_, err := fmt.Fprintln(w, "No skills. A skill is a folder with a SKILL.md, in .agents/skills/ (or .agent/skills/, .claude/skills/) of the project, or in $XDG_CONFIG_HOME/agent/skills/.")
		return err
	}
	where := func(sk skills.Skill) string {
		if home != "" && sk.User {
			if rest, ok := strings.CutPrefix(sk.Folder, home+string(filepath.Separator)); ok {
				return "~/" + filepath.ToSlash(rest)
			}
		}
		return sk.Folder
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tWHERE\tDESCRIPTION")
	for _, sk := range set.Skills {
		desc := strings.Join(strings.Fields(sk.Description), " ")
		if sk.UserOnly {
			desc += " (not offered to the model: disable-model-invocation)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", sk.Name, safeText(where(sk)), safeText(desc))
	}
	for _, sk := range set.Shadowed {
		winner, _ := set.Find(sk.Name)
		fmt.Fprintf(tw, "%s\t%s\t(shadowed by %s)\n", sk.Name, safeText(where(sk)), safeText(where(winner)))
	}
	return tw.Flush()
}
