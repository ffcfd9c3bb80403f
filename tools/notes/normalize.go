package notes

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentcli/agent/internal/termtext"
)

// Size limits of a note's fields.
const (
	MaxTitle   = 500
	MaxContent = 1 << 20
	MaxTags    = 32
	MaxTag     = 64
	MaxFolder  = 500
)

func invalidf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}

// NormalizeFolder returns folder as "/a/b/": "a/b", "/a/b" and "a//b/"
// are one folder, "" is the root "/". Segments are trimmed; "." segments
// are dropped and ".." is refused, so a folder means one place.
func NormalizeFolder(folder string) (string, error) {
	var parts []string
	for _, p := range strings.FieldsFunc(folder, func(r rune) bool { return r == '/' || r == '\\' }) {
		p = strings.TrimSpace(p)
		switch p {
		case "", ".":
			continue
		case "..":
			return "", invalidf("folder %q: \"..\" is not allowed; name the folder from the root, like /projects/web", folder)
		}
		if strings.IndexFunc(p, unicode.IsControl) >= 0 {
			return "", invalidf("folder %q holds control characters", folder)
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return "/", nil
	}
	out := "/" + strings.Join(parts, "/") + "/"
	if len(out) > MaxFolder {
		return "", invalidf("folder is %d bytes long; at most %d", len(out), MaxFolder)
	}
	return out, nil
}

// ParseTags reads tags written as a comma-separated list ("a, b") or as
// a JSON array (["a","b"]): models write both.
func ParseTags(s string) ([]string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return []string{}, nil
	}
	if strings.HasPrefix(s, "[") {
		var tags []string
		if err := json.Unmarshal([]byte(s), &tags); err != nil {
			return nil, invalidf("tags %q: not a JSON array of strings; write them like a, b or [\"a\",\"b\"]", short(s))
		}
		return NormalizeTags(tags)
	}
	return NormalizeTags(strings.Split(s, ","))
}

// NormalizeTags returns tags as a sorted set: trimmed, lowercase, without
// a leading '#', inner spaces as '-', empty ones and duplicates dropped.
func NormalizeTags(tags []string) ([]string, error) {
	out := make([]string, 0, len(tags))
	for _, t := range tags {
		t = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(t), "#"))
		t = strings.Join(strings.Fields(t), "-")
		if t == "" {
			continue
		}
		if strings.IndexFunc(t, unicode.IsControl) >= 0 || strings.ContainsAny(t, ",") {
			return nil, invalidf("tag %q holds a comma or control characters", t)
		}
		if len(t) > MaxTag {
			return nil, invalidf("tag %q is longer than %d bytes", short(t), MaxTag)
		}
		out = append(out, t)
	}
	slices.Sort(out)
	out = slices.Compact(out)
	if len(out) > MaxTags {
		return nil, invalidf("%d tags; at most %d", len(out), MaxTags)
	}
	return out, nil
}

// checkNote validates and normalises a new note.
func checkNote(n NewNote) (NewNote, error) {
	var err error
	if n.Title, err = checkTitle(n.Title); err != nil {
		return n, err
	}
	if err = checkContent(n.Content); err != nil {
		return n, err
	}
	if n.Folder, err = NormalizeFolder(n.Folder); err != nil {
		return n, err
	}
	if n.Tags, err = NormalizeTags(n.Tags); err != nil {
		return n, err
	}
	return n, nil
}

func checkTitle(t string) (string, error) {
	t = strings.Join(strings.Fields(t), " ")
	switch {
	case t == "":
		return "", invalidf("the title is empty; give the note a short title")
	case len(t) > MaxTitle:
		return "", invalidf("the title is %d bytes long; at most %d", len(t), MaxTitle)
	case !utf8.ValidString(t):
		return "", invalidf("the title is not valid UTF-8")
	}
	return t, nil
}

func checkContent(c string) error {
	switch {
	case len(c) > MaxContent:
		return invalidf("the content is %d bytes long; at most %d", len(c), MaxContent)
	case !utf8.ValidString(c):
		return invalidf("the content is not valid UTF-8")
	case strings.ContainsAny(c, MarkStart+MarkEnd+"\x00"):
		// The marks must stay unambiguous in search excerpts.
		return invalidf("the content holds control characters \\x00, \\x02 or \\x03")
	}
	return nil
}

// short shortens a value quoted in a message.
func short(s string) string {
	if len(s) <= 40 {
		return s
	}
	return termtext.RunePrefix(s, 40) + "..."
}

// Check validates and normalises a new note as Create would: a caller
// that reads many notes (an import) names the one at fault.
func Check(n NewNote) (NewNote, error) { return checkNote(n) }
