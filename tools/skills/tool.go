package skills

import (
	"context"
	_ "embed"
	"fmt"
	"path"
	"strings"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/frontmatter"
	"github.com/agentcli/agent/tools/sandbox"
)

//go:embed skill.md
var toolDesc string

// ToolName is the skill tool's name.
const ToolName = "skill"

// Args are the skill tool's parameters.
type Args struct {
	Name string `json:"name" jsonschema:"the skill's name, as the Skills section lists it"`
	File string `json:"file,omitempty" jsonschema:"a file of the skill's folder, such as references/api.md; leave out for its instructions"`
}

// Tool is the skill tool, which also gives the set it loads from (for
// the prompt's catalog of skills).
type Tool struct {
	tools.Tool
	set *Set
}

// Set returns the skills the tool loads.
func (t *Tool) Set() *Set { return t.set }

// Tool returns the skill tool over the set's offered skills, reading at
// most max bytes of a file (the read limit); nil when no skill is
// offered, so that the catalog does not name a tool with nothing to load.
func (s *Set) Tool(max int64) *Tool {
	if len(s.Offered()) == 0 {
		return nil
	}
	return &Tool{set: s, Tool: tools.New(ToolName, toolDesc, func(_ context.Context, a Args) (tools.Result, error) {
		return s.load(a, max)
	}, tools.Acts(tools.ActionRead))}
}

// The bounds of the listing of a skill's files that comes with its
// instructions.
const (
	maxFiles     = 40
	maxFileDepth = 3
	maxListings  = 20
)

// load answers one call: a skill's instructions (its SKILL.md without
// the front matter) or one of its files.
func (s *Set) load(a Args, max int64) (tools.Result, error) {
	sk, ok := s.Find(a.Name)
	if !ok || sk.UserOnly {
		return tools.Errorf(tools.CodeFileNotFound, "no skill is called %q; the skills are: %s", a.Name, nameList(s.Offered())), nil
	}
	file := strings.TrimSpace(a.File)
	instructions := file == "" || path.Clean(file) == "SKILL.md"
	if instructions {
		file = "SKILL.md"
	}
	data, size, err := s.read(sk, file, max)
	if err != nil {
		code := sandbox.RefusalCode(err)
		if code == "" {
			return tools.Result{}, fmt.Errorf("read skill %s, %s: %w", sk.Name, file, err)
		}
		return tools.Errorf(code, "skill %s: %s: %v", sk.Name, file, err), nil
	}
	if size > int64(len(data)) {
		return tools.Errorf(tools.CodeFileTooLarge, "skill %s: %s is %d bytes, over the read limit of %d", sk.Name, file, size, max), nil
	}
	text := strings.ToValidUTF8(string(data), "\uFFFD")
	where := sk.Dir
	if sk.User {
		where = "the user's skills folder"
	}
	if !instructions {
		return tools.Result{
			Message:  fmt.Sprintf("skill %s: %s, %s", sk.Name, file, lines(text)),
			Metadata: []tools.Attr{{Name: "skill", Value: sk.Name}, {Name: "file", Value: file}},
			Content:  text,
		}, nil
	}
	m, body, err := frontmatter.Parse(text)
	if err == nil {
		_, err = Validate(m, sk.Name)
	}
	if err != nil {
		return tools.Errorf(tools.CodeFileNotFound, "skill %s changed since the conversation started and is no longer valid: %v", sk.Name, err), nil
	}
	body = strings.TrimSpace(body) + "\n"
	msg := fmt.Sprintf("skill %s from %s: its instructions, %s; paths in them are relative to its folder: load a file with this tool's file parameter", sk.Name, where, lines(body))
	if sk.User {
		msg += "; its scripts cannot run here (they are outside the project)"
	} else {
		msg += fmt.Sprintf(", run a script with run_command as %s/scripts/NAME", sk.Dir)
	}
	meta := []tools.Attr{{Name: "skill", Value: sk.Name}, {Name: "folder", Value: where}}
	if files := s.files(sk); files != "" {
		meta = append(meta, tools.Attr{Name: "files", Value: files})
	}
	return tools.Result{Message: msg, Metadata: meta, Content: body}, nil
}

// files lists the files of sk's folder besides SKILL.md, space-separated,
// at most maxFiles of them and maxFileDepth folders deep; hidden files
// are left out.
func (s *Set) files(sk Skill) string {
	var out []string
	more, listings := 0, 0
	var walk func(rel string, depth int)
	walk = func(rel string, depth int) {
		if listings++; listings > maxListings {
			return
		}
		ents, err := s.list(sk, rel, maxFiles)
		if err != nil {
			return
		}
		for _, e := range ents {
			p := path.Join(rel, e.Name())
			switch {
			case strings.HasPrefix(e.Name(), "."), p == "SKILL.md":
			case e.IsDir() && depth < maxFileDepth:
				walk(p, depth+1)
			case len(out) >= maxFiles:
				more++
			case e.IsDir():
				out = append(out, p+"/")
			default:
				out = append(out, p)
			}
		}
	}
	walk("", 1)
	if more > 0 {
		out = append(out, fmt.Sprintf("(and %d more)", more))
	}
	return strings.Join(out, " ")
}

// nameList names skills for a message: at most 30, then how many more.
func nameList(sks []Skill) string {
	var names []string
	for i, sk := range sks {
		if i == 30 {
			names = append(names, fmt.Sprintf("and %d more", len(sks)-30))
			break
		}
		names = append(names, sk.Name)
	}
	return strings.Join(names, ", ")
}

func lines(text string) string {
	n := strings.Count(text, "\n")
	if text != "" && !strings.HasSuffix(text, "\n") {
		n++
	}
	if n == 1 {
		return "1 line"
	}
	return fmt.Sprintf("%d lines", n)
}
