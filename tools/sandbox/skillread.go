package sandbox

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/agentcli/agent/tools"
)

// Skills are folders of instructions (SKILL.md) and their files that a
// project keeps in .agents/skills, .agent/skills or .claude/skills, and
// a user in their own configuration folder. The agent reads them for the
// model through its skill tool, under the rules of ReadText, plus one:
// every file must resolve inside its skill's folder, so a skill cannot
// reach even another file of the project through a symlink. The folder
// itself may be a symlink (.claude/skills/x -> ../../.agents/skills/x is
// how teams share skills between agents), judged like any path.

// ReadSkill reads the file rel (slash-separated, relative to the
// skill's folder: SKILL.md, references/api.md) of the project's skill
// folder dir (.agents/skills/pdf), under the rules of ReadText. dir may
// lie in .agent/skills, the other folder of .agent a reader may enter.
// A file that resolves outside the folder dir resolves to is refused.
func (r *Root) ReadSkill(dir, rel string, max int64) ([]byte, int64, error) {
	if err := checkSkillRel(rel); err != nil {
		return nil, 0, err
	}
	base, err := r.skillFolder(dir)
	if err != nil {
		return nil, 0, err
	}
	asked := path.Join(dir, rel)
	t, err := r.resolveText(asked, skillsDir)
	if err != nil {
		return nil, 0, err
	}
	if !inFolder(base.Rel, t.Rel) {
		return nil, 0, refuse(tools.CodePathOutsideRoot, "it leads out of the skill's folder, to %s", t.Rel)
	}
	return r.readResolved(t, asked, max)
}

// ListSkillDir lists the folder dir of the project (a skills folder such
// as .agents/skills, or a folder of one skill), which may lie in
// .agent/skills, through verified folder handles. Entries are not
// followed: a symlink is listed as one. It returns at most max+1
// entries, sorted by name, so that the caller can tell there are more
// than max (which ones are left out is then up to the file system).
func (r *Root) ListSkillDir(dir string, max int) ([]fs.DirEntry, error) {
	return r.listFolder(dir, max, skillsDir)
}

// listFolder lists the project's folder dir for a reader that may enter
// the folder enter of .agent, as ListSkillDir says.
func (r *Root) listFolder(dir string, max int, enter string) ([]fs.DirEntry, error) {
	t, err := r.folderIn(dir, enter)
	if err != nil {
		return nil, err
	}
	h, err := r.OpenDir(t.Rel, false)
	if err != nil {
		if rf, ok := AsRefusal(t, err); ok {
			return nil, rf.reason(dir)
		}
		return nil, err
	}
	defer h.Close()
	f, err := h.Open(".")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ents, err := f.ReadDir(max + 1)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	slices.SortFunc(ents, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return ents, nil
}

// skillFolder resolves dir, which must be a folder of the project.
func (r *Root) skillFolder(dir string) (Target, error) { return r.folderIn(dir, skillsDir) }

// folderIn resolves dir, which must be a folder of the project, for a
// reader that may enter the folder enter of .agent.
func (r *Root) folderIn(dir, enter string) (Target, error) {
	t, err := r.resolveText(dir, enter)
	switch {
	case err != nil:
		return Target{}, err
	case t.Info == nil:
		return Target{}, errNoFile
	case !t.Info.IsDir():
		return Target{}, refuse(tools.CodeFileNotFound, "it is a file, not a folder")
	}
	return t, nil
}

// ReadUserSkill reads the file rel of the user's skill folder dir (in
// their configuration folder), under the rules of ReadUserText; the file
// must resolve inside the folder dir resolves to.
func ReadUserSkill(dir, rel string, max int64) ([]byte, int64, error) {
	if err := checkSkillRel(rel); err != nil {
		return nil, 0, err
	}
	base, err := userFolder(dir)
	if err != nil {
		return nil, 0, err
	}
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if _, err := os.Stat(p); errors.Is(err, syscall.ELOOP) {
		return nil, 0, refuse(tools.CodeUnsupportedType, "it is a symlink loop")
	}
	real, err := filepath.EvalSymlinks(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, 0, errNoFile
	case err != nil:
		return nil, 0, err
	}
	if !inFolder(filepath.ToSlash(base), filepath.ToSlash(real)) {
		return nil, 0, refuse(tools.CodePathOutsideRoot, "it leads out of the skill's folder, to %s", real)
	}
	return ReadUserText(real, max)
}

// ListUserDir lists the user's folder dir (their skills folder, one
// skill's, their agents folder), as ListSkillDir does.
func ListUserDir(dir string, max int) ([]fs.DirEntry, error) {
	real, err := userFolder(dir)
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(real, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ents, err := f.ReadDir(max + 1)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	slices.SortFunc(ents, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return ents, nil
}

// userFolder resolves the user's folder dir: a real folder, not one of
// the kernel's.
func userFolder(dir string) (string, error) {
	if _, err := os.Stat(dir); errors.Is(err, syscall.ELOOP) {
		return "", refuse(tools.CodeUnsupportedType, "it is a symlink loop")
	}
	real, err := filepath.EvalSymlinks(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", errNoFile
	case err != nil:
		return "", err
	}
	if kernelPath(real) {
		return "", refuse(tools.CodePathOutsideRoot, "it leads to %s, which is not a folder of yours", real)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		return "", refuse(tools.CodeFileNotFound, "it is a file, not a folder")
	}
	return real, nil
}

// checkSkillRel refuses a file name that is no path inside a skill's
// folder: empty, absolute, or climbing out with "..".
func checkSkillRel(rel string) error {
	if rf := checkPathText(rel, "file"); rf != nil {
		return rf.reason(rel)
	}
	c := path.Clean(filepath.ToSlash(rel))
	switch {
	case rel == "" || c == ".":
		return refuse(tools.CodeSchemaInvalid, "it names no file of the skill")
	case path.IsAbs(c) || filepath.IsAbs(rel):
		return refuse(tools.CodePathOutsideRoot, "it is an absolute path; give a path inside the skill's folder, such as references/api.md")
	case c == ".." || strings.HasPrefix(c, "../"):
		return refuse(tools.CodePathOutsideRoot, "it climbs out of the skill's folder with ..")
	}
	return nil
}

// inFolder reports whether the slash-separated path p is dir or lies
// inside it.
func inFolder(dir, p string) bool {
	return p == dir || dir == "/" && strings.HasPrefix(p, "/") || strings.HasPrefix(p, dir+"/")
}
