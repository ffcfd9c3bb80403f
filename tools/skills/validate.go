package skills

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/agentcli/agent/tools/frontmatter"
)

// The limits of the Agent Skills standard.
const (
	maxNameLen          = 64
	maxDescriptionLen   = 1024
	maxCompatibilityLen = 500
)

// Meta is what a SKILL.md's front matter says, validated.
type Meta struct {
	Name        string
	Description string
	// License and Compatibility are the standard's optional fields.
	// (allowed-tools is checked, never obeyed: every call a skill leads
	// to is approved as any other call.)
	License       string
	Compatibility string
	// UserOnly marks a skill whose front matter says
	// disable-model-invocation: true (Claude Code's mark of a skill only
	// a person starts): listed, but not offered to the model.
	UserOnly bool
}

// Validate reads a skill's front matter as the Agent Skills standard
// says: name is 1-64 lowercase letters, digits and hyphens, neither
// starting nor ending with a hyphen nor holding two in a row, and equal
// to folder, the name of the skill's folder; description is 1-1,024
// characters. license, compatibility (at most 500 characters), metadata
// (a map) and allowed-tools (a text or a list) are optional. Any other
// key is accepted and ignored: Claude Code's skills carry their own
// (argument-hint, model, context...), and a team's skills must work
// here as they are.
func Validate(m frontmatter.Matter, folder string) (Meta, error) {
	var meta Meta
	if len(m.Fields) == 0 {
		return meta, errors.New("SKILL.md has no front matter (a --- block with name and description)")
	}
	name, err := text(m, "name", true)
	if err != nil {
		return meta, err
	}
	if err := CheckName(name); err != nil {
		return meta, err
	}
	if name != folder {
		return meta, fmt.Errorf("the name %q is not the folder's name %q", name, folder)
	}
	desc, err := text(m, "description", true)
	if err != nil {
		return meta, err
	}
	desc = strings.TrimSpace(desc)
	if n := utf8.RuneCountInString(desc); n == 0 || n > maxDescriptionLen {
		return meta, fmt.Errorf("the description must be 1 to %d characters, not %d", maxDescriptionLen, n)
	}
	meta = Meta{Name: name, Description: desc}
	if meta.License, err = text(m, "license", false); err != nil {
		return Meta{}, err
	}
	if meta.Compatibility, err = text(m, "compatibility", false); err != nil {
		return Meta{}, err
	}
	if _, ok := m.Get("compatibility"); ok {
		if n := utf8.RuneCountInString(meta.Compatibility); n == 0 || n > maxCompatibilityLen {
			return Meta{}, fmt.Errorf("compatibility must be 1 to %d characters, not %d", maxCompatibilityLen, n)
		}
	}
	if v, ok := m.Get("metadata"); ok && v.Kind != frontmatter.Map && v.Text != "" {
		return Meta{}, errors.New("metadata must be a map of keys to values")
	}
	if v, ok := m.Get("allowed-tools"); ok {
		if _, isList := v.Strings(); v.Kind != frontmatter.Scalar && !isList {
			return Meta{}, errors.New("allowed-tools must be a text or a list of texts")
		}
	}
	if v, ok := m.Text("disable-model-invocation"); ok && strings.EqualFold(strings.TrimSpace(v), "true") {
		meta.UserOnly = true
	}
	return meta, nil
}

// text returns key's text, an error when it is a list or a map, or
// missing while required.
func text(m frontmatter.Matter, key string, required bool) (string, error) {
	v, ok := m.Get(key)
	switch {
	case !ok && required:
		return "", fmt.Errorf("the front matter has no %s", key)
	case !ok:
		return "", nil
	case v.Kind != frontmatter.Scalar:
		return "", fmt.Errorf("%s must be a text, not a list or a map", key)
	}
	return v.Text, nil
}

// CheckName applies the standard's rules for a skill's name (1-64
// lowercase letters, digits and hyphens, no hyphen at either end nor two
// in a row); sub-agents' names follow them too.
func CheckName(name string) error {
	switch {
	case name == "":
		return errors.New("the name is empty")
	case len(name) > maxNameLen:
		return fmt.Errorf("the name is %d characters long, over %d", utf8.RuneCountInString(name), maxNameLen)
	case strings.HasPrefix(name, "-") || strings.HasSuffix(name, "-"):
		return fmt.Errorf("the name %q starts or ends with a hyphen", name)
	case strings.Contains(name, "--"):
		return fmt.Errorf("the name %q holds two hyphens in a row", name)
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return fmt.Errorf("the name %q may hold only lowercase letters, digits and hyphens", name)
		}
	}
	return nil
}
