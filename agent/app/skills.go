package app

import (
	"path/filepath"

	"github.com/agentcli/agent/agent/conversation"
	"github.com/agentcli/agent/prompt"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/sandbox"
	"github.com/agentcli/agent/tools/skills"
)

// FindSkills discovers the skills of the project of files and of the
// user whose configuration folder is userDir (its skills folder).
func FindSkills(files *sandbox.Root, userDir string) *skills.Set {
	src := skills.Sources{Project: files}
	if userDir != "" {
		src.UserDir = filepath.Join(userDir, "skills")
	}
	return skills.Discover(src)
}

// skillTool is the skill tool of a conversation, over the skills found
// now; nil when there is none to offer. Each skill left out is one
// warning line naming its folder.
func (b *Builder) skillTool(in conversation.ToolInput) tools.Tool {
	root := in.Files.Root()
	set := FindSkills(root, b.UserDir)
	for _, p := range set.Problems {
		b.warn(p.String())
	}
	if t := set.Tool(root.Options().MaxReadBytes); t != nil {
		return t
	}
	return nil
}

// skillCatalog is the prompt's catalog of skills: those the registry's
// skill tool offers, in its order.
func skillCatalog(reg *tools.Registry) []prompt.Skill {
	t, ok := reg.Lookup(skills.ToolName)
	if !ok {
		return nil
	}
	st, ok := t.(*skills.Tool)
	if !ok {
		return nil
	}
	var out []prompt.Skill
	for _, sk := range st.Set().Offered() {
		out = append(out, prompt.Skill{Name: sk.Name, Description: sk.Description})
	}
	return out
}
