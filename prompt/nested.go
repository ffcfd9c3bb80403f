package prompt

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
)

// userInstructions reads the user's own AGENTS.md in dir (their config
// folder, $XDG_CONFIG_HOME/agent), bounded to max bytes; "" when there is
// none or dir is "".
func userInstructions(dir string, max int) (name, text string) {
	if dir == "" {
		return "", ""
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		return "", ""
	}
	defer r.Close()
	return instructionsIn(rootReader{r}, ".", max)
}

// Nested finds the instructions of subfolders (an AGENTS.md, GEMINI.md or
// CLAUDE.md below the project root) as the model starts working on files
// there, the way Codex reads nested AGENTS.md files. Each file is given
// once per conversation; the root's own file is already in the system
// prompt. It is safe for concurrent use.
type Nested struct {
	root  string
	max   int
	files FileReader // nil: through os.Root

	mu   sync.Mutex
	seen map[string]bool // folders already looked at, project-relative
}

// NewNested returns a Nested for the project at root, reading at most max
// bytes of each file (DefaultMaxInstructions when zero) through files,
// which cmd/agent makes the file tools' sandbox (see Options.Files); nil
// reads inside root through os.Root.
func NewNested(root string, max int, files FileReader) *Nested {
	if max <= 0 {
		max = DefaultMaxInstructions
	}
	return &Nested{root: root, max: max, files: files, seen: map[string]bool{}}
}

// For returns the instructions that apply to the project-relative file
// path and have not been given yet: the nearest file at or above its
// folder, below the root. It returns the file's project-relative name
// and its text, or "" when there is nothing new. Files are read through
// the Nested's FileReader, inside the project only, so a link cannot
// send a file from elsewhere (or a secret one) to the model.
func (n *Nested) For(file string) (name, text string) {
	rel := filepath.ToSlash(filepath.Clean(file))
	if filepath.IsAbs(file) {
		r, err := filepath.Rel(n.root, file)
		if err != nil {
			return "", ""
		}
		rel = filepath.ToSlash(r)
	}
	if rel == "." || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", ""
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	root, err := os.OpenRoot(n.root)
	if err != nil {
		return "", ""
	}
	defer root.Close()
	files := n.files
	if files == nil {
		files = rootReader{root}
	}
	// The file may be a folder itself (list_directory): look there too.
	dir := rel
	if info, err := root.Stat(rel); err != nil || !info.IsDir() {
		dir = path.Dir(rel)
	}
	for ; dir != "." && dir != "/" && dir != ""; dir = path.Dir(dir) {
		if strings.HasPrefix(path.Base(dir), ".") {
			continue // .git, .agent: never instructions
		}
		if n.seen[dir] {
			return "", "" // this folder's nearest file was given (or there is none)
		}
		n.seen[dir] = true
		if info, err := root.Stat(dir); err != nil || !info.IsDir() {
			continue // gone, or a link out of the project
		}
		f, t := instructionsIn(files, dir, n.max)
		if f != "" {
			return dir + "/" + f, t
		}
	}
	return "", ""
}
