package sandbox

import (
	"io/fs"
	"path"
)

// Sub-agents are markdown files a project keeps in .agent/agents,
// .agents/agents or .claude/agents: their front matter names one, their
// body is its instructions. The agent reads them for itself, as it reads
// AGENTS.md, under the rules of ReadText; .agent/agents is the third
// folder of .agent a reader may enter.

// ListAgentsDir lists the project's agents folder dir (.claude/agents),
// which may lie in .agent/agents, as ListSkillDir lists a skills folder:
// through verified folder handles, entries not followed, at most max+1
// of them, sorted by name.
func (r *Root) ListAgentsDir(dir string, max int) ([]fs.DirEntry, error) {
	return r.listFolder(dir, max, agentsDir)
}

// ReadAgentFile reads the project's agent file rel (.claude/agents/x.md)
// under the rules of ReadText: at most max bytes, and the file's size. A
// symlink is judged by where it lands, as any reader's; rel may lie in
// .agent/agents.
func (r *Root) ReadAgentFile(rel string, max int64) ([]byte, int64, error) {
	return r.readText(path.Clean(rel), max, agentsDir)
}
