package notesview

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/agentcli/agent/tools/notes"
)

// NotFound names the missing note id in a store's ErrNotFound.
func NotFound(err error, id int64) error {
	if errors.Is(err, notes.ErrNotFound) {
		return noteNotFound(id)
	}
	return err
}

// noteNotFound is a missing note, in the user's words.
type noteNotFound int64

func (n noteNotFound) Error() string {
	return fmt.Sprintf("no note with id %d; agent notes list shows the ids", int64(n))
}
func (n noteNotFound) Unwrap() error { return notes.ErrNotFound }

// ErrorCode is the protocol code of a notes store's error, for --json.
func ErrorCode(err error) string {
	switch {
	case errors.Is(err, notes.ErrEmbedding):
		return notes.CodeEmbedding
	case errors.Is(err, notes.ErrNotFound):
		return notes.CodeNotFound
	case errors.Is(err, notes.ErrInvalid):
		return "TOOL_SCHEMA_INVALID"
	}
	return "NOTES_FAILED"
}

// JSON prints v as indented JSON, HTML characters as they are.
func JSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// Progress returns a progress callback that draws a bar on w when tty
// (a terminal's standard error) and says nothing elsewhere.
func Progress(w io.Writer, tty bool, what string) func(done, total int) {
	if !tty {
		return func(int, int) {}
	}
	return func(done, total int) {
		const width = 30
		filled := width
		if total > 0 {
			filled = min(width, done*width/total)
		}
		fmt.Fprintf(w, "\r%s [%s%s] %d/%d notes", what, strings.Repeat("#", filled), strings.Repeat(".", width-filled), done, total)
		if done >= total {
			fmt.Fprintln(w)
		}
	}
}
