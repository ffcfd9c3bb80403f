package chat

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"charm.land/lipgloss/v2"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/llm/imagefit"
	"github.com/agentcli/agent/internal/atomicfile"
	"github.com/agentcli/agent/tools/sandbox"
)

// An @path names a file to send with the message: a project file (read
// through the conversation, so it counts as read for the write guards),
// a file outside the project (the person's own choice; the model's
// read_file still may not read there), or an image for a model that sees
// images. Everything is checked before the message goes: a secret file,
// an unknown path or an image the model cannot see is refused in one
// line and the message stays in the editor.

// outsideMax bounds a text file attached from outside the project.
const outsideMax = 256 << 10

// imageExts are the image files an @path attaches as a picture.
var imageExts = map[string]bool{".png": true, ".jpg": true, ".jpeg": true, ".gif": true, ".webp": true}

// attachRef is one @path of a message.
type attachRef struct {
	token string // as written, with the @ (and quotes)
	path  string // the path it names, as the person wrote it
}

// attachRefs finds the @paths of s: @word, or @"a path with spaces". A
// word is taken when it names a known project file, or looks like a path
// (a / or a . in it, or ~ first); "@bob" is not an attachment.
func attachRefs(s string, files []string) []attachRef {
	known := map[string]bool{}
	for _, f := range files {
		known[f] = true
	}
	var out []attachRef
	seen := map[string]bool{}
	for i := 0; i < len(s); i++ {
		if s[i] != '@' || (i > 0 && !strings.ContainsRune(" \t\n(", rune(s[i-1]))) {
			continue
		}
		var r attachRef
		if strings.HasPrefix(s[i+1:], `"`) {
			end := strings.IndexByte(s[i+2:], '"')
			if end < 0 {
				continue
			}
			r = attachRef{token: s[i : i+3+end], path: s[i+2 : i+2+end]}
		} else {
			end := strings.IndexAny(s[i:], " \t\n")
			if end < 0 {
				end = len(s) - i
			}
			w := strings.TrimRight(s[i+1:i+end], ".,;:!?)")
			r = attachRef{token: "@" + w, path: w}
		}
		if r.path == "" || seen[r.path] {
			continue
		}
		if !known[r.path] && !strings.ContainsAny(r.path, "/.") && !strings.HasPrefix(r.path, "~") {
			continue
		}
		seen[r.path] = true
		out = append(out, r)
	}
	return out
}

// flagged is an @path refused before sending that may be sent as plain
// text when the person insists (Enter again).
type flagged struct{ error }

func (f flagged) Unwrap() error { return f.error }

// attachResult is what reading a message's @paths gave.
type attachResult struct {
	prompt string   // the message with the text files appended
	notes  []string // one line per attachment, for the scrollback
}

// resolveAttachments reads the @paths of prompt; the first that cannot be
// sent stops everything, before any image is attached.
// With lenient (the person pressed Enter again on a message whose @path
// was flagged) an @path that names no file, a folder or a secret file is
// left in the message as text, attached nothing: "install @types/node".
func resolveAttachments(ctx context.Context, conv Conversation, root, prompt string, refs []attachRef, lenient bool) (attachResult, error) {
	type file struct {
		ref    attachRef
		abs    string
		rel    string // project-relative, "" outside the project
		image  bool
		source string
	}
	var fs []file
	for _, r := range refs {
		abs := r.path
		if rest, ok := strings.CutPrefix(abs, "~/"); ok {
			home, err := os.UserHomeDir()
			if err != nil {
				return attachResult{}, fmt.Errorf("%s: %w", r.token, err)
			}
			abs = filepath.Join(home, rest)
		} else if !filepath.IsAbs(abs) {
			abs = filepath.Join(root, abs)
		}
		abs = filepath.Clean(abs)
		f := file{ref: r, abs: abs, image: imageExts[strings.ToLower(filepath.Ext(abs))], source: r.path}
		if rel, err := filepath.Rel(root, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
			f.rel, f.source = filepath.ToSlash(rel), filepath.ToSlash(rel)
		} else if f.image {
			f.source = filepath.Base(abs) // the model needs the name, not the person's folders
		}
		var flag error
		fi, err := os.Stat(abs)
		switch {
		case sandbox.IsSecretName(abs):
			flag = fmt.Errorf("%s: the name says it holds secrets (keys, passwords), so it is not sent to the model", r.token)
		case errors.Is(err, os.ErrNotExist):
			flag = fmt.Errorf("%s: no such file", r.token)
		case err != nil:
			return attachResult{}, fmt.Errorf("%s: %w", r.token, err)
		case fi.IsDir():
			flag = fmt.Errorf("%s is a folder; attach its files one by one", r.token)
		}
		if flag != nil {
			if lenient {
				continue
			}
			return attachResult{}, flagged{flag}
		}
		fs = append(fs, f)
	}
	res := attachResult{prompt: prompt}
	var texts strings.Builder
	type image struct {
		f    file
		data []byte
	}
	var images []image
	for _, f := range fs {
		switch {
		case f.image:
			data, err := atomicfile.ReadSmall(f.abs, imagefit.MaxFileBytes)
			if err != nil {
				return attachResult{}, fmt.Errorf("%s: %w", f.ref.token, err)
			}
			info, err := imagefit.Probe(data)
			if err != nil {
				return attachResult{}, fmt.Errorf("%s: %w", f.ref.token, err)
			}
			images = append(images, image{f, data})
			res.notes = append(res.notes, f.source+" · "+info.String())
		case f.rel != "":
			text, err := conv.Attach(ctx, f.rel)
			if err != nil {
				return attachResult{}, fmt.Errorf("%s: %w", f.ref.token, err)
			}
			texts.WriteString("\n\n" + text)
			res.notes = append(res.notes, f.rel+" · "+lines(textLines(text)))
		default:
			data, err := atomicfile.ReadSmall(f.abs, outsideMax)
			if err != nil {
				return attachResult{}, fmt.Errorf("%s: %w", f.ref.token, err)
			}
			if !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0 {
				return attachResult{}, fmt.Errorf("%s is not a text file", f.ref.token)
			}
			fmt.Fprintf(&texts, "\n\n<file path=%q>\n%s\n</file>", f.ref.path, data)
			res.notes = append(res.notes, f.ref.path+" · "+lines(textLines(string(data)))+" · outside the project")
		}
	}
	// The images last: attached, they go with the next message whatever
	// happens after, so nothing may fail once the first one is.
	for _, im := range images {
		if err := conv.AttachImage(ctx, im.data, im.f.source); err != nil {
			if errors.Is(err, agent.ErrNoImages) {
				err = fmt.Errorf("%w; switch to a model that reads images with /model", err)
			}
			return attachResult{}, fmt.Errorf("%s: %w", im.f.ref.token, err)
		}
	}
	res.prompt += texts.String()
	return res, nil
}

// lines is "1 line", "12 lines".
func lines(n int) string {
	if n == 1 {
		return "1 line"
	}
	return fmt.Sprintf("%d lines", n)
}

// chips draws the @paths of line as chips, the rest of it in base.
func (m *Model) chips(line string, refs []attachRef, base lipgloss.Style) string {
	var b strings.Builder
	for line != "" {
		at, tok := -1, ""
		for _, r := range refs {
			if i := strings.Index(line, r.token); i >= 0 && (at < 0 || i < at) {
				at, tok = i, r.token
			}
		}
		if at < 0 {
			b.WriteString(base.Render(line))
			break
		}
		if at > 0 {
			b.WriteString(base.Render(line[:at]))
		}
		b.WriteString(m.st.chip.Render(tok))
		line = line[at+len(tok):]
	}
	return b.String()
}

// editorChips draws the @paths of the editor's view as chips: only
// colour is added, so the layout and the cursor stay where the editor
// put them.
func (m *Model) editorChips(view string) string {
	if !strings.Contains(view, "@") {
		return view
	}
	for _, r := range attachRefs(m.input.Value(), m.files) {
		view = strings.ReplaceAll(view, r.token, m.st.chip.Render(r.token))
	}
	return view
}

// droppedImage recognises a pasted image path: what a terminal types when
// a file is dragged onto it, an absolute path, quoted ('/a b.png',
// "/a b.png") or with its spaces and specials escaped (/a\ b.png). It
// returns the @path to put in the editor instead.
func droppedImage(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if len(s) < 2 || strings.ContainsAny(s, "\n\r") {
		return "", false
	}
	p := s
	switch {
	case (s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0]:
		p = s[1 : len(s)-1]
	case strings.Contains(s, `\`):
		var b strings.Builder
		for i := 0; i < len(s); i++ {
			if s[i] == '\\' && i+1 < len(s) {
				i++
			}
			b.WriteByte(s[i])
		}
		p = b.String()
	case strings.ContainsAny(s, " \t"):
		return "", false
	}
	if !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~/") || !imageExts[strings.ToLower(filepath.Ext(p))] || strings.Contains(p, `"`) {
		return "", false
	}
	if strings.ContainsAny(p, " \t") {
		return `@"` + p + `" `, true
	}
	return "@" + p + " ", true
}

// textLines counts the lines of an attached text: those of a file, or
// those inside the <file> block the conversation wraps one in.
func textLines(s string) int {
	if strings.HasPrefix(s, "<file ") {
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			s = strings.TrimSuffix(s[i+1:], "</file>")
		}
	}
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return 0
	}
	return strings.Count(s, "\n") + 1
}
