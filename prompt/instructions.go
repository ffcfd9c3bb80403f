package prompt

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
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

// FileReader reads a file for the prompt. cmd/agent passes the file
// tools' sandbox (sandbox.Root), so that an instruction file is read under
// read_file's rules: inside the project (a symlink judged by where it
// lands), never in .git or .agent, never a secret file such as .env,
// never a FIFO or a device.
type FileReader interface {
	// ReadText returns at most max bytes of the file rel (slash-separated,
	// relative to the folder read) and the file's whole size. A missing
	// file is an error wrapping fs.ErrNotExist; a file that may not be
	// read is an error saying why in a few words ("it is a FIFO, not a
	// regular file").
	ReadText(rel string, max int64) (data []byte, size int64, err error)
}

// instructions reads the project's instructions file through files (nil:
// inside root only, through os.Root) and bounds it to max bytes. It
// returns the file's name, or "" when there is none.
func instructions(root string, files FileReader, max int) (name, text string, err error) {
	if files == nil {
		r, err := os.OpenRoot(root)
		if err != nil {
			return "", "", fmt.Errorf("open project folder: %w", err)
		}
		defer r.Close()
		files = rootReader{r}
	}
	name, text = instructionsIn(files, ".", max)
	return name, text, nil
}

// instructionsIn is the instructions file of the folder dir (relative to
// what files reads), bounded to max bytes, cut at a line break, with a
// note saying what was left out. A file that may not be read, a folder,
// or one that is not UTF-8 text is replaced by a one-line note, so the
// model and `agent prompt` show why the instructions are missing.
func instructionsIn(files FileReader, dir string, max int) (name, text string) {
	for _, n := range InstructionFiles {
		data, size, err := files.ReadText(path.Join(dir, n), int64(max)+utf8.UTFMax)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return n, fmt.Sprintf("[%s is not shown: %v.]", n, err)
		}
		if strings.IndexByte(string(data), 0) >= 0 || !utf8.Valid(trimPartialRune(data)) {
			return n, fmt.Sprintf("[%s is not shown: it is not UTF-8 text.]", n)
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

// rootReader reads inside the folder r only (os.Root): a symlink leading
// out of it is refused, so a link cannot send a file from elsewhere (say
// ~/.aws/credentials) to the model. It reads the user's own folder, and
// the project when no FileReader is given.
type rootReader struct{ r *os.Root }

// ReadText implements FileReader. The file is checked with Stat before
// it is opened, and opened without blocking, so a FIFO named AGENTS.md
// cannot hang the agent.
func (rr rootReader) ReadText(n string, max int64) ([]byte, int64, error) {
	if _, err := rr.r.Lstat(n); errors.Is(err, fs.ErrNotExist) {
		return nil, 0, err
	}
	info, err := rr.r.Stat(n)
	switch {
	case errors.Is(err, syscall.ELOOP):
		return nil, 0, errors.New("it is a symlink loop")
	case errors.Is(err, fs.ErrPermission), errors.Is(err, fs.ErrNotExist):
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return nil, 0, errors.New("it cannot be read (" + pe.Err.Error() + ")")
		}
		return nil, 0, errors.New("it cannot be read")
	case err != nil:
		// os.Root refuses a symlink leading out of the folder.
		return nil, 0, errors.New("it points outside the project folder")
	case !info.Mode().IsRegular():
		return nil, 0, errors.New("it is not a regular file")
	}
	f, err := rr.r.OpenFile(n, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, 0, errors.New("it cannot be read")
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return nil, 0, errors.New("it is not a regular file")
	}
	data, err := io.ReadAll(io.LimitReader(f, max))
	if err != nil {
		return nil, 0, errors.New("it cannot be read")
	}
	return data, info.Size(), nil
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
