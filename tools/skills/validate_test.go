package skills

import (
	"strings"
	"testing"

	"github.com/agentcli/agent/tools/frontmatter"
)

func TestValidate(t *testing.T) {
	long := strings.Repeat("a", 64)
	for _, c := range []struct {
		name, folder, front string
		want                string // "" for valid, else words of the error
	}{
		{"minimal", "pdf", "name: pdf\ndescription: Fill PDF forms.", ""},
		{"digits and hyphens", "a1-b2", "name: a1-b2\ndescription: x", ""},
		{"64 characters", long, "name: " + long + "\ndescription: x", ""},
		{"every optional field", "pdf", "name: pdf\ndescription: d\nlicense: Apache-2.0\ncompatibility: Requires git\nmetadata:\n  author: org\n  version: \"1.0\"\nallowed-tools: Bash(git:*) Read", ""},
		{"allowed-tools as a list", "pdf", "name: pdf\ndescription: d\nallowed-tools:\n  - Read\n  - Bash(git:*)", ""},
		{"Claude Code's own keys", "pdf", "name: pdf\ndescription: d\nargument-hint: [file]\nmodel: sonnet\ncontext: fork\nuser-invocable: true\nhooks:\n  x: y", ""},
		{"a colon in the description", "pdf", "name: pdf\ndescription: Use when: the user asks", ""},
		{"1024 characters", "pdf", "name: pdf\ndescription: " + strings.Repeat("é", 1024), ""},
		{"no front matter", "pdf", "", "no front matter"},
		{"no name", "pdf", "description: d", "has no name"},
		{"no description", "pdf", "name: pdf", "has no description"},
		{"empty description", "pdf", "name: pdf\ndescription: \"  \"", "1 to 1024 characters, not 0"},
		{"description too long", "pdf", "name: pdf\ndescription: " + strings.Repeat("é", 1025), "not 1025"},
		{"description a list", "pdf", "name: pdf\ndescription:\n  - a", "description must be a text"},
		{"uppercase", "PDF", "name: PDF\ndescription: d", "only lowercase letters, digits and hyphens"},
		{"underscore", "a_b", "name: a_b\ndescription: d", "only lowercase letters"},
		{"non-ASCII letter", "café", "name: café\ndescription: d", "only lowercase letters"},
		{"leading hyphen", "-pdf", "name: -pdf\ndescription: d", "starts or ends with a hyphen"},
		{"trailing hyphen", "pdf-", "name: pdf-\ndescription: d", "starts or ends with a hyphen"},
		{"double hyphen", "pdf--x", "name: pdf--x\ndescription: d", "two hyphens in a row"},
		{"65 characters", long + "a", "name: " + long + "a\ndescription: d", "65 characters long, over 64"},
		{"not the folder's name", "pdf-tools", "name: pdf\ndescription: d", `not the folder's name "pdf-tools"`},
		{"name a map", "pdf", "name:\n  a: b\ndescription: d", "name must be a text"},
		{"compatibility empty", "pdf", "name: pdf\ndescription: d\ncompatibility: \"\"", "compatibility must be 1 to 500"},
		{"compatibility too long", "pdf", "name: pdf\ndescription: d\ncompatibility: " + strings.Repeat("x", 501), "not 501"},
		{"metadata a text", "pdf", "name: pdf\ndescription: d\nmetadata: author", "metadata must be a map"},
		{"allowed-tools a map", "pdf", "name: pdf\ndescription: d\nallowed-tools:\n  a: b", "allowed-tools must be a text or a list"},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc := "---\n" + c.front + "\n---\nbody\n"
			if c.front == "" {
				doc = "body\n"
			}
			m, _, err := frontmatter.Parse(doc)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			meta, err := Validate(m, c.folder)
			switch {
			case c.want == "" && err != nil:
				t.Errorf("Validate(%q) = %v, want it valid", c.front, err)
			case c.want == "" && (meta.Name != c.folder || meta.Description == ""):
				t.Errorf("Validate(%q) = %+v, want name %q and a description", c.front, meta, c.folder)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Errorf("Validate(%q) error = %v, want one saying %q", c.front, err, c.want)
			}
		})
	}
}

func TestValidateFields(t *testing.T) {
	m, _, err := frontmatter.Parse("---\nname: pdf\ndescription: >\n  Fill forms.\n  Merge files.\nlicense: MIT\ncompatibility: Needs qpdf\ndisable-model-invocation: true\n---\n")
	if err != nil {
		t.Fatal(err)
	}
	meta, err := Validate(m, "pdf")
	if err != nil {
		t.Fatal(err)
	}
	want := Meta{Name: "pdf", Description: "Fill forms. Merge files.", License: "MIT", Compatibility: "Needs qpdf", UserOnly: true}
	if meta != want {
		t.Errorf("Validate = %+v, want %+v", meta, want)
	}
}
