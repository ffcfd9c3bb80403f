package conversation

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentcli/agent/tools/jobs"
	"github.com/agentcli/agent/tools/lsp"
	"github.com/agentcli/agent/tools/skills"
)

const noJobs = "No background jobs yet: the model starts one with run_command's background flag."

// jobsCommand lists the project's background jobs (run_command's
// background flag), as `agent jobs` does.
func (c *Conversation) jobsCommand(ctx context.Context, _ string) (Reply, error) {
	if c.tools.Jobs == nil {
		return Reply{Text: "Background jobs are off (run_command is not available)."}, nil
	}
	if _, err := os.Lstat(filepath.Join(c.dir, jobs.DefaultPath)); errors.Is(err, fs.ErrNotExist) {
		// Listing would create the database: no job was ever started.
		return Reply{Text: noJobs}, nil
	}
	list, err := c.tools.Jobs.List(ctx)
	if err != nil {
		return Reply{}, err
	}
	if len(list) == 0 {
		return Reply{Text: noJobs}, nil
	}
	now := time.Now()
	var sb strings.Builder
	sb.WriteString("| id | state | command |\n|--:|:--|:--|\n")
	for _, j := range list {
		fmt.Fprintf(&sb, "| %d | %s | `%s` |\n", j.ID, cell(j.State(now)), cell(j.Label))
	}
	sb.WriteString("\nThe model reads a job's output with job_output; `agent jobs output ID` prints it in a shell.")
	return Reply{Text: sb.String()}, nil
}

// lspCommand lists the language servers: their state and their last
// check's diagnostics, as agent lsp does.
func (c *Conversation) lspCommand(context.Context, string) (Reply, error) {
	if c.tools.LSP == nil {
		return Reply{Text: "Language servers are off ([lsp] enabled = false)."}, nil
	}
	var sb strings.Builder
	lsp.WriteStatus(&sb, c.tools.LSP.Status())
	return Reply{Text: "```\n" + sb.String() + "```"}, nil
}

// skillsCommand lists the skills the model can load, as `agent skills`
// does.
func (c *Conversation) skillsCommand(context.Context, string) (Reply, error) {
	t, ok := c.tools.Reg.Lookup(skills.ToolName)
	st, isSkills := t.(*skills.Tool)
	if !ok || !isSkills || len(st.Set().Offered()) == 0 {
		return Reply{Text: "No skills. A skill is a folder with a SKILL.md in the project's .agents/skills/ (or .agent/skills/, .claude/skills/), or in the user's agent/skills/ configuration folder."}, nil
	}
	var sb strings.Builder
	sb.WriteString("| skill | description |\n|:--|:--|\n")
	for _, sk := range st.Set().Offered() {
		fmt.Fprintf(&sb, "| %s | %s |\n", cell(sk.Name), cell(FirstSentence(sk.Description)))
	}
	return Reply{Text: sb.String()}, nil
}

// cell is text fit for one cell of a markdown table: one line, its bars
// escaped, at most 80 characters.
func cell(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 80 {
		s = string(r[:79]) + "…"
	}
	return strings.ReplaceAll(s, "|", `\|`)
}
