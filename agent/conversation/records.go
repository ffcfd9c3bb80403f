package conversation

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentcli/agent/internal/atomicfile"
)

// The projects where the agent keeps records (sessions, the audit log,
// jobs) are listed in the user's configuration folder, one absolute
// path a line, so that a sandboxed program of any project sees their
// .agent folders empty (shell.Options.Masked): a command run in one
// project must not read what was said in another.

// recordsFile is the list's name in the user's configuration folder.
const recordsFile = "projects"

// maxRecords bounds what is read of the list.
const maxRecords = 1 << 20

// RememberProject adds the project folder root to the list in userDir
// ("" keeps no list) when it is not there yet. A line is appended, never
// the file rewritten: two agents starting at once lose nothing (a name
// twice is harmless).
func RememberProject(userDir, root string) error {
	if userDir == "" || !filepath.IsAbs(root) {
		return nil
	}
	if slices.Contains(recorded(userDir), root) {
		return nil
	}
	if strings.ContainsAny(root, "\n\r") {
		return fmt.Errorf("the project folder %q has a line break in its name, which the list of projects cannot hold", root)
	}
	if err := os.MkdirAll(userDir, 0o700); err != nil {
		return fmt.Errorf("record the project: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(userDir, recordsFile), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("record the project: %w", err)
	}
	_, err = f.WriteString(root + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("record the project: %w", err)
	}
	return nil
}

// OtherRecords are the .agent folders of the projects in the list in
// userDir other than root: what a sandboxed program of root must not
// read.
func OtherRecords(userDir, root string) []string {
	var out []string
	for _, p := range recorded(userDir) {
		if p != root {
			out = append(out, filepath.Join(p, ".agent"))
		}
	}
	return out
}

// recorded are the project folders of the list in userDir, each once.
func recorded(userDir string) []string {
	if userDir == "" {
		return nil
	}
	data, err := atomicfile.ReadSmall(filepath.Join(userDir, recordsFile), maxRecords)
	if err != nil {
		return nil
	}
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if p := sc.Text(); filepath.IsAbs(p) && !slices.Contains(out, p) {
			out = append(out, filepath.Clean(p))
		}
	}
	return out
}
