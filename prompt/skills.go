package prompt

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/agentcli/agent/internal/termtext"
)

// Skill is one skill for the prompt's catalog of skills: the model sees
// its name and description, and loads the rest with the skill tool.
type Skill struct {
	Name        string
	Description string
}

// The budgets of the skills section, in bytes. The lines of the first
// skills take at most SkillsBudget together (one description at most
// maxSkillLine); the skills after them are only named, in at most
// skillNamesBudget. The small-window form names them all, in at most
// SmallSkillsBudget.
const (
	SkillsBudget      = 1 << 10
	SmallSkillsBudget = 256
	maxSkillLine      = 300
	skillNamesBudget  = 512
)

// skillsSection lists skills, one line each (name: description) within
// the budget, the rest by name; "" when there are none.
func skillsSection(skills []Skill, small bool) string {
	if len(skills) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("# Skills\n\n")
	if small {
		b.WriteString("Load one with the skill tool when a task matches it: ")
		b.WriteString(nameRun(skills, SmallSkillsBudget))
		b.WriteString(".\n")
		return b.String()
	}
	b.WriteString("Instructions for particular tasks. When a task matches one, load it with the skill tool before you start.\n\n")
	used, i := 0, 0
	for ; i < len(skills); i++ {
		line := "- " + skills[i].Name + ": " + clip(termtext.OneLine(skills[i].Description), maxSkillLine) + "\n"
		if used+len(line) > SkillsBudget {
			break
		}
		b.WriteString(line)
		used += len(line)
	}
	if i < len(skills) {
		fmt.Fprintf(&b, "- More skills (load one to see what it is for): %s\n", nameRun(skills[i:], skillNamesBudget))
	}
	return b.String()
}

// nameRun names skills, comma-separated, in at most budget bytes; the
// ones left out are counted.
func nameRun(skills []Skill, budget int) string {
	var b strings.Builder
	for i, s := range skills {
		rest := fmt.Sprintf(" and %d more", len(skills)-i)
		if i > 0 && b.Len()+2+len(s.Name)+len(rest) > budget {
			b.WriteString(rest)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(s.Name)
	}
	return b.String()
}

// clip shortens s to at most n bytes, at a word's end where there is
// one, marking the cut with "…".
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	if sp := strings.LastIndexByte(s[:cut], ' '); sp > cut/2 {
		cut = sp
	}
	return strings.TrimRight(s[:cut], " ,;:") + "…"
}
