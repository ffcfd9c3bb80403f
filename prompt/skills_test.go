package prompt

import (
	"fmt"
	"strings"
	"testing"
)

// TestSkillsSection: one line per skill within the budget, the rest
// named; nothing at all without skills; names only in the small form.
func TestSkillsSection(t *testing.T) {
	if got := skillsSection(nil, false); got != "" {
		t.Errorf("no skills give a section: %q", got)
	}
	two := []Skill{
		{Name: "pdf", Description: "Fill PDF forms.\n  Use when handling PDFs."},
		{Name: "deploy", Description: "Deploy the site."},
	}
	want := "# Skills\n\nInstructions for particular tasks. When a task matches one, load it with the skill tool before you start.\n\n" +
		"- pdf: Fill PDF forms. Use when handling PDFs.\n- deploy: Deploy the site.\n"
	if got := skillsSection(two, false); got != want {
		t.Errorf("skillsSection(two) =\n%s\nwant\n%s", got, want)
	}
	if got, want := skillsSection(two, true), "# Skills\n\nLoad one with the skill tool when a task matches it: pdf, deploy.\n"; got != want {
		t.Errorf("small skillsSection(two) = %q, want %q", got, want)
	}

	// Many skills with long descriptions: the lines stay within the
	// budget, each description is cut at a word, the rest are named.
	var many []Skill
	for i := range 100 {
		many = append(many, Skill{Name: fmt.Sprintf("skill-%02d", i), Description: strings.Repeat("word ", 200)})
	}
	got := skillsSection(many, false)
	head, more, ok := strings.Cut(got, "- More skills (load one to see what it is for): ")
	if !ok {
		t.Fatalf("no line naming the rest:\n%s", got)
	}
	lines := strings.Split(strings.TrimSpace(head[strings.Index(head, "- "):]), "\n")
	body := strings.Join(lines, "\n") + "\n"
	if len(body) > SkillsBudget || len(lines) < 2 {
		t.Errorf("%d skill lines in %d bytes, want at least 2 within %d", len(lines), len(body), SkillsBudget)
	}
	for _, l := range lines {
		if len(l) > maxSkillLine+len("- skill-00: ") || !strings.HasSuffix(l, "word…") {
			t.Errorf("line not cut at a word within %d bytes: %q", maxSkillLine, l)
		}
	}
	if !strings.HasPrefix(more, fmt.Sprintf("skill-%02d, ", len(lines))) || !strings.Contains(more, " more\n") || len(more) > skillNamesBudget+1 {
		t.Errorf("the rest are not named from skill-%02d within %d bytes: %q", len(lines), skillNamesBudget, more)
	}
	small := skillsSection(many, true)
	if len(small) > SmallSkillsBudget+60 || !strings.HasSuffix(small, " more.\n") {
		t.Errorf("small form of 100 skills (%d bytes) = %q", len(small), small)
	}
}

func TestClip(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"one two three four", 12, "one two…"},
		{"ééééééé", 8, "éé…"},
		{"abcdefghijklmnop", 8, "abcde…"},
	} {
		if got := clip(c.in, c.n); got != c.want || len(got) > c.n {
			t.Errorf("clip(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}
