package subagents

import "strings"

// claudeTools maps Claude Code's tool names to ours, so that an agent
// file written for Claude Code works here unchanged.
var claudeTools = map[string]string{
	"Read":       "read_file",
	"Write":      "write_file",
	"Edit":       "write_file",
	"MultiEdit":  "write_file",
	"Bash":       "run_command",
	"Glob":       "list_directory",
	"LS":         "list_directory",
	"Grep":       "search_files",
	"WebFetch":   "web_fetch",
	"BashOutput": "job_output",
	"KillShell":  "job_stop",
	"KillBash":   "job_stop",
	"Skill":      "skill",
}

// claudeOnly are Claude Code's tools with nothing of the kind here; an
// agent naming them gets its other tools. Task is there: an agent
// never starts another.
var claudeOnly = map[string]bool{
	"Task": true, "Agent": true, "TodoWrite": true, "WebSearch": true,
	"NotebookEdit": true, "NotebookRead": true, "ExitPlanMode": true,
	"SlashCommand": true,
}

// taskTool is the tool that runs agents: never one of an agent's own.
const taskTool = "task"

// ToolName maps a name an agent file gives in tools to ours: Claude
// Code's (Read, Bash) to the tool doing the same, ours and an MCP tool's
// (mcp__server__tool) as written. known is false for a name that is
// neither; ours is "" for one of Claude Code's with nothing of the kind
// here, and for the task tool itself.
func ToolName(name string) (ours string, known bool) {
	if t, ok := claudeTools[name]; ok {
		return t, true
	}
	if claudeOnly[name] || name == taskTool {
		return "", true
	}
	if rest, ok := strings.CutPrefix(name, "mcp__"); ok {
		return name, rest != "" && plainName(rest, true)
	}
	return name, name != "" && name[0] >= 'a' && name[0] <= 'z' && plainName(name, false)
}

// plainName reports a name of lowercase letters, digits and underscores
// (and, in an MCP tool's, any letter and hyphens, as servers name them).
func plainName(s string, mcp bool) bool {
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '_':
		case mcp && (r >= 'A' && r <= 'Z' || r == '-' || r == '.'):
		default:
			return false
		}
	}
	return true
}
