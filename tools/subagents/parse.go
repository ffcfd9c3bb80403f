package subagents

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentcli/agent/tools/frontmatter"
	"github.com/agentcli/agent/tools/skills"
)

// The limits of an agent's front matter.
const (
	// DefaultMaxTurns is an agent's model calls when its file says
	// none, and the most an untrusted project's file may give it.
	DefaultMaxTurns = 12
	// MaxTurnsLimit is the most max_turns any file may say.
	MaxTurnsLimit = 50
	// maxDescription bounds a description, in characters: Claude Code's
	// hold examples, and run to a few thousand.
	maxDescription = 4096
	// maxModelName bounds a model's name.
	maxModelName = 200
)

// ReadOnlyTools are the tools of an agent whose file names none: the
// ones that read, as the built-in explorer has.
var ReadOnlyTools = []string{"read_file", "list_directory", "search_files", "skill"}

// Parse reads one agent file: its front matter (name and description
// required; tools, model and max_turns optional; other keys, such as
// Claude Code's color, accepted and ignored) and its body, the agent's
// instructions.
func Parse(doc string) (Agent, error) {
	m, body, err := frontmatter.Parse(doc)
	if err != nil {
		return Agent{}, err
	}
	if len(m.Fields) == 0 {
		return Agent{}, errors.New("it has no front matter (a --- block with name and description)")
	}
	var a Agent
	if a.Name, err = text(m, "name", true); err != nil {
		return Agent{}, err
	}
	if err := skills.CheckName(a.Name); err != nil {
		return Agent{}, err
	}
	if a.Description, err = text(m, "description", true); err != nil {
		return Agent{}, err
	}
	a.Description = strings.TrimSpace(a.Description)
	if n := utf8.RuneCountInString(a.Description); n == 0 || n > maxDescription {
		return Agent{}, fmt.Errorf("the description must be 1 to %d characters, not %d", maxDescription, n)
	}
	if a.Tools, a.Ignored, err = toolList(m); err != nil {
		return Agent{}, err
	}
	if a.Model, err = modelName(m, &a.Ignored); err != nil {
		return Agent{}, err
	}
	if a.MaxTurns, err = maxTurns(m); err != nil {
		return Agent{}, err
	}
	a.Instructions = strings.TrimSpace(strings.ToValidUTF8(body, "\uFFFD"))
	return a, nil
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

// toolList reads tools: a comma-separated text, as Claude Code writes
// it, or a list (quoted names are not: a tool's name needs no quotes);
// our names or Claude Code's. Absent or empty, it is
// ReadOnlyTools. ignored says which of Claude Code's tools have nothing
// of the kind here.
func toolList(m frontmatter.Matter) (names, ignored []string, err error) {
	v, ok := m.Get("tools")
	var raw []string
	switch {
	case !ok:
	case v.Kind == frontmatter.Scalar:
		// "Read, Grep", or YAML's flow list "[Read, Grep]", which the
		// front matter keeps as written.
		list := strings.TrimSpace(v.Text)
		if strings.HasPrefix(list, "[") && strings.HasSuffix(list, "]") {
			list = list[1 : len(list)-1]
		}
		raw = strings.Split(list, ",")
	default:
		list, isList := v.Strings()
		if !isList {
			return nil, nil, errors.New("tools must be a text (Read, Grep) or a list of names")
		}
		raw = list
	}
	var without []string
	for _, r := range raw {
		r = strings.TrimSpace(r)
		if r == "" {
			continue
		}
		ours, known := ToolName(r)
		switch {
		case !known:
			return nil, nil, fmt.Errorf("tools names %q, which is neither a tool of this agent nor one of Claude Code's", r)
		case ours == "":
			without = append(without, r)
		case !slices.Contains(names, ours):
			names = append(names, ours)
		}
	}
	if len(without) > 0 {
		ignored = append(ignored, "tools "+strings.Join(without, ", ")+": nothing of the kind here")
	}
	if len(names) == 0 && len(without) == 0 {
		names = slices.Clone(ReadOnlyTools)
	}
	return names, ignored, nil
}

// modelName reads model: "inherit" or absent is the conversation's
// model; Claude Code's aliases (sonnet, opus, haiku) name no model of
// another provider, so they are the conversation's model too, said in
// ignored.
func modelName(m frontmatter.Matter, ignored *[]string) (string, error) {
	s, err := text(m, "model", false)
	if err != nil {
		return "", err
	}
	s = strings.TrimSpace(s)
	switch {
	case s == "" || strings.EqualFold(s, "inherit"):
		return "", nil
	case slices.Contains([]string{"sonnet", "opus", "haiku"}, strings.ToLower(s)):
		*ignored = append(*ignored, "model "+s+": Claude Code's alias; the conversation's model is used")
		return "", nil
	case len(s) > maxModelName || strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || r == 0x7f }):
		return "", fmt.Errorf("the model %q is no model name (one word, at most %d characters)", s, maxModelName)
	}
	return s, nil
}

// maxTurns reads max_turns: a number from 1 to MaxTurnsLimit;
// DefaultMaxTurns when absent.
func maxTurns(m frontmatter.Matter) (int, error) {
	s, err := text(m, "max_turns", false)
	if err != nil || s == "" {
		return DefaultMaxTurns, err
	}
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 1 || n > MaxTurnsLimit {
		return 0, fmt.Errorf("max_turns = %q: use a number from 1 to %d", s, MaxTurnsLimit)
	}
	return n, nil
}
