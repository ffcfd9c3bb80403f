package prompt

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"syscall"
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
//
// The file is opened inside the project only (os.Root): an AGENTS.md that
// is a symlink to a file elsewhere (a cloned repository pointing at
// ~/.aws/credentials) is never read, so it cannot be sent to the model
// provider. Such a file, a folder, an unreadable file or one that is not
// UTF-8 text is replaced by a one-line note, so the model and `agent
// prompt` show why the instructions are missing.
func instructions(root string, max int) (name, text string, err error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return "", "", fmt.Errorf("open project folder: %w", err)
	}
	defer r.Close()
	name, text = instructionsIn(r, max)
	return name, text, nil
}

// instructionsIn is instructions for the folder r.
func instructionsIn(r *os.Root, max int) (name, text string) {
	for _, n := range InstructionFiles {
		if _, err := r.Lstat(n); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		data, size, why := readInstructions(r, n, max)
		if why != "" {
			return n, fmt.Sprintf("[%s is not shown: %s.]", n, why)
		}
		text := strings.TrimSpace(string(data))
		if len(text) > max || size > int64(len(data)) {
			cut := min(max, len(text))
			for cut > 0 && cut < len(text) && !utf8.RuneStart(text[cut]) {
				cut--
			}
			if i := strings.LastIndexByte(text[:cut], '\n'); i > max/2 {
				cut = i
			}
			text = strings.TrimSpace(text[:cut]) + fmt.Sprintf("\n\n[%s is cut here: %d of its %d bytes are shown; read the file for the rest.]", n, cut, size)
		}
		return n, text
	}
	return "", ""
}

// readInstructions reads at most a little more than max bytes of the
// file n inside r. It returns why the file cannot be used, if it cannot.
// The file is checked with Stat before it is opened, and opened without
// blocking, so a FIFO named AGENTS.md cannot hang the agent.
func readInstructions(r *os.Root, n string, max int) (data []byte, size int64, why string) {
	info, err := r.Stat(n)
	switch {
	case errors.Is(err, syscall.ELOOP):
		return nil, 0, "it is a symlink loop"
	case errors.Is(err, fs.ErrPermission), errors.Is(err, fs.ErrNotExist):
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return nil, 0, "it cannot be read (" + pe.Err.Error() + ")"
		}
		return nil, 0, "it cannot be read"
	case err != nil:
		// os.Root refuses a symlink leading out of the project.
		return nil, 0, "it points outside the project folder"
	case !info.Mode().IsRegular():
		return nil, 0, "it is not a regular file"
	}
	f, err := r.OpenFile(n, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, 0, "it cannot be read"
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return nil, 0, "it is not a regular file"
	}
	data, err = io.ReadAll(io.LimitReader(f, int64(max)+utf8.UTFMax))
	if err != nil {
		return nil, 0, "it cannot be read"
	}
	if strings.IndexByte(string(data), 0) >= 0 || !utf8.Valid(trimPartialRune(data)) {
		return nil, 0, "it is not UTF-8 text"
	}
	return data, info.Size(), ""
}

// trimPartialRune drops a rune cut in half at the end of b (the read is
// bounded, so the last character may be incomplete).
func trimPartialRune(b []byte) []byte {
	for i := 0; i < utf8.UTFMax && i < len(b); i++ {
		if utf8.Valid(b[:len(b)-i]) {
			return b[:len(b)-i]
		}
	}
	return b
}
