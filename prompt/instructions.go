package prompt

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// DefaultMaxInstructions is how many bytes of the project's instructions
// file the prompt keeps.
const DefaultMaxInstructions = 16 << 10

// InstructionFiles are the project instruction files, in order of
// preference: the first one present at the root is used.
var InstructionFiles = []string{"AGENTS.md", "GEMINI.md", "CLAUDE.md"}

// instructions reads the project's instructions file and bounds it to max
// bytes, cut at a line break, with a note saying what was left out. It
// returns the file's name, or "" when there is none.
func instructions(root string, max int) (name, text string, err error) {
	for _, n := range InstructionFiles {
		data, err := os.ReadFile(filepath.Join(root, n))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return "", "", fmt.Errorf("read %s: %w", n, err)
		}
		text := strings.TrimSpace(string(data))
		if len(text) > max {
			cut := max
			for cut > 0 && !utf8.RuneStart(text[cut]) {
				cut--
			}
			if i := strings.LastIndexByte(text[:cut], '\n'); i > max/2 {
				cut = i
			}
			text = strings.TrimSpace(text[:cut]) + fmt.Sprintf("\n\n[%s is cut here: %d of its %d bytes are shown; read the file for the rest.]", n, cut, len(data))
		}
		return n, text, nil
	}
	return "", "", nil
}
