// Package skills finds the skills of a project and of its user (the
// Agent Skills standard: a folder with a SKILL.md whose front matter
// names and describes it, and optional scripts/, references/ and
// assets/), checks them, and offers them to the model through the skill
// tool: the catalog in the system prompt holds only each skill's name
// and description; the tool loads a skill's instructions, or one of its
// files, when a task needs it.
//
// A project's skills are its text, like AGENTS.md: a cloned repository
// writes them. They are listed without asking whether the project is
// trusted, and every file is read through the file tools' sandbox
// (fsedit), never followed out of its skill's folder; a FIFO, a device,
// a secret file or a file over the read limit is refused.
package skills

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/frontmatter"
	"github.com/agentcli/agent/tools/sandbox"
)

// ProjectFolders are the project's skills folders, in precedence order:
// a skill found in an earlier one hides a same-named skill in a later
// one. The agent's own folder comes first (a version of a skill made
// for this agent), then the cross-agent one, then Claude Code's, so
// skills written for other agents work unchanged.
var ProjectFolders = []string{".agent/skills", ".agents/skills", ".claude/skills"}

const (
	// maxEntries bounds the folders read in one skills folder.
	maxEntries = 200
	// maxHead is how much of a SKILL.md discovery reads: the front
	// matter must end within it.
	maxHead = 64 << 10
)

// Skill is one skill found and valid.
type Skill struct {
	Meta
	// Dir is the skill's folder: slash-separated and relative to the
	// project for a project's skill (.agents/skills/pdf), absolute for
	// the user's.
	Dir string
	// Folder is the skills folder it was found in (.agents/skills, or
	// the user's folder).
	Folder string
	// User marks a skill of the user's own folder.
	User bool
}

// Problem is a skill folder left out, and why.
type Problem struct {
	// Dir is the folder, as Skill.Dir names it.
	Dir string
	Err error
}

// String is the problem's warning line.
func (p Problem) String() string {
	return fmt.Sprintf("skill %s skipped: %v", p.Dir, p.Err)
}

// Sources say where to look for skills.
type Sources struct {
	// Project is the project's sandbox; nil for no project skills.
	Project *sandbox.Root
	// UserDir is the user's skills folder ($XDG_CONFIG_HOME/agent/skills);
	// "" for none.
	UserDir string
}

// Set is what Discover found.
type Set struct {
	// Skills are the skills found, each name once: the project's, then
	// the user's, each by folder precedence and then by name.
	Skills []Skill
	// Shadowed are skills hidden by a same-named one found before them:
	// the project's hide the user's.
	Shadowed []Skill
	// Problems are the folders left out, one each.
	Problems []Problem

	project *sandbox.Root
}

// Discover finds the skills of src. It never fails: a folder that
// cannot be read or a skill that is not valid is a Problem, and a
// missing skills folder is no skills.
func Discover(src Sources) *Set {
	s := &Set{project: src.Project}
	seen := map[string]bool{}
	add := func(sk Skill) {
		if seen[sk.Name] {
			s.Shadowed = append(s.Shadowed, sk)
			return
		}
		seen[sk.Name] = true
		s.Skills = append(s.Skills, sk)
	}
	if src.Project != nil {
		for _, folder := range ProjectFolders {
			s.scan(folder, false, add)
		}
	}
	if src.UserDir != "" {
		s.scan(src.UserDir, true, add)
	}
	return s
}

// scan reads the skills folder folder.
func (s *Set) scan(folder string, user bool, add func(Skill)) {
	var (
		ents []fs.DirEntry
		err  error
	)
	if user {
		ents, err = sandbox.ListUserDir(folder, maxEntries)
	} else {
		ents, err = s.project.ListSkillDir(folder, maxEntries)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil {
		s.Problems = append(s.Problems, Problem{Dir: folder, Err: err})
		return
	}
	if len(ents) > maxEntries {
		s.Problems = append(s.Problems, Problem{Dir: folder, Err: fmt.Errorf("it holds more than %d entries; only %d are read", maxEntries, maxEntries)})
		ents = ents[:maxEntries]
	}
	for _, e := range ents {
		name := e.Name()
		if strings.HasPrefix(name, ".") || !e.IsDir() && e.Type()&fs.ModeSymlink == 0 {
			continue // README.md, .DS_Store: not skills
		}
		sk := Skill{Folder: folder, User: user, Dir: path.Join(folder, name)}
		if user {
			sk.Dir = filepath.Join(folder, name)
		}
		if e.Type()&fs.ModeSymlink != 0 {
			// Judge where the link lands first, so that a warning says
			// it of the folder, not of its SKILL.md.
			if _, err := s.list(sk, "", 0); err != nil {
				if sandbox.RefusalCode(err) != tools.CodeFileNotFound {
					s.Problems = append(s.Problems, Problem{Dir: sk.Dir, Err: err})
				}
				continue
			}
		}
		meta, err := s.readMeta(sk, name)
		switch {
		case err == nil:
			sk.Meta = meta
			add(sk)
		case sandbox.RefusalCode(err) == tools.CodeFileNotFound:
			// A folder without SKILL.md, or a link to a file: not a skill.
		default:
			s.Problems = append(s.Problems, Problem{Dir: sk.Dir, Err: err})
		}
	}
}

// readMeta reads and checks the front matter of sk's SKILL.md; folder
// is the name of sk's folder.
func (s *Set) readMeta(sk Skill, folder string) (Meta, error) {
	data, size, err := s.read(sk, "SKILL.md", maxHead)
	if sandbox.RefusalCode(err) == tools.CodeFileNotFound {
		return Meta{}, err
	}
	if err != nil {
		return Meta{}, fmt.Errorf("SKILL.md: %w", err)
	}
	m, _, err := frontmatter.Parse(string(data))
	if errors.Is(err, frontmatter.ErrNotClosed) && size > int64(len(data)) {
		return Meta{}, fmt.Errorf("SKILL.md: its front matter does not end in its first %d KiB", maxHead>>10)
	}
	if err != nil {
		return Meta{}, fmt.Errorf("SKILL.md: %w", err)
	}
	return Validate(m, folder)
}

// read reads the file rel of sk's folder through the reader of its
// place: at most max bytes, and the file's size.
func (s *Set) read(sk Skill, rel string, max int64) ([]byte, int64, error) {
	if sk.User {
		return sandbox.ReadUserSkill(sk.Dir, rel, max)
	}
	return s.project.ReadSkill(sk.Dir, rel, max)
}

// list lists the folder rel of sk's folder ("" for the folder itself).
func (s *Set) list(sk Skill, rel string, max int) ([]fs.DirEntry, error) {
	if sk.User {
		return sandbox.ListUserDir(filepath.Join(sk.Dir, filepath.FromSlash(rel)), max)
	}
	return s.project.ListSkillDir(path.Join(sk.Dir, rel), max)
}

// Offered are the skills the model may load: all but the UserOnly ones.
func (s *Set) Offered() []Skill {
	var out []Skill
	for _, sk := range s.Skills {
		if !sk.UserOnly {
			out = append(out, sk)
		}
	}
	return out
}

// Find returns the skill called name.
func (s *Set) Find(name string) (Skill, bool) {
	for _, sk := range s.Skills {
		if sk.Name == name {
			return sk, true
		}
	}
	return Skill{}, false
}
