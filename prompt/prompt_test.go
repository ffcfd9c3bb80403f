package prompt

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// testTools is a catalog in the shape the caller builds from its registry.
var testTools = []Tool{
	{Name: "read_file", Description: "Read a text file.\nErrors: FILE_NOT_FOUND.", Params: []Param{
		{Name: "file_path", Kind: "string", Required: true, Description: "path relative to the project root"},
		{Name: "start_line", Kind: "integer", Description: "first line, 1-based"},
	}},
	{Name: "write_file", Description: "Write a text file.", Params: []Param{
		{Name: "operation_type", Kind: "enum", Required: true, Enum: []string{"create", "rewrite", "partial"}, Description: "what to do"},
		{Name: "content", Kind: "string", Required: true, Description: "the text,\n  verbatim"},
		{Name: "backup", Kind: "boolean"},
	}},
}

var testExamples = Examples{
	Read:    "<tool_call name=\"read_file\" id=\"1\">\n<file_path>README.md</file_path>\n</tool_call>",
	Create:  "<tool_call name=\"write_file\" id=\"2\">\n<content><![CDATA[a < b]]></content>\n</tool_call>",
	Partial: "<tool_call name=\"write_file\" id=\"3\">\n<start_line>3</start_line>\n</tool_call>",
	Error:   "<tool_response id=\"4\">\n  <result>\n    <error code=\"FILE_NOT_FOUND\">file not found: x</error>\n  </result>\n</tool_response>",
}

func fixedClock() time.Time { return time.Date(2025, 3, 14, 15, 9, 26, 0, time.UTC) }

func buildTestPrompt(t *testing.T, dir string, opts Options) Prompt {
	t.Helper()
	opts.Root = dir
	if opts.Now == nil {
		opts.Now = fixedClock
	}
	if opts.Platform == "" {
		opts.Platform = "linux/amd64"
	}
	p, err := Build(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPromptGolden renders the whole prompt with a fixed clock, catalog
// and examples; the project folder (a temporary path) shows as $ROOT.
func TestPromptGolden(t *testing.T) {
	tests := []struct {
		name string
		opts Options
	}{
		{"full", Options{Tools: testTools, Examples: testExamples}},
		{"plain-no-tools", Options{Tree: TreeOptions{Style: Plain}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := promptFixture(t)
			p := buildTestPrompt(t, dir, tt.opts)
			got := strings.ReplaceAll(p.String(), dir, "$ROOT")
			checkGolden(t, filepath.Join("prompt", tt.name+".golden"), got)
		})
	}
}

func promptFixture(t *testing.T) string {
	t.Helper()
	src := fixtureFrom(t, filepath.Join("testdata", "prompt", "project.txtar"))
	return src
}

func TestPromptSectionOrder(t *testing.T) {
	p := buildTestPrompt(t, promptFixture(t), Options{Tools: testTools, Examples: testExamples,
		Skills: []Skill{{Name: "pdf", Description: "Fill PDF forms."}}})
	var names []string
	for _, s := range p.Sections {
		names = append(names, s.Name)
	}
	want := []string{SectionRole, SectionProtocol, SectionTools, SectionSkills, SectionInstructions, SectionEnvironment, SectionTree}
	if strings.Join(names, ",") != strings.Join(want, ",") {
		t.Fatalf("sections = %v, want %v", names, want)
	}
	all := p.String()
	last := -1
	for _, s := range p.Sections {
		i := strings.Index(all, s.Text)
		if i <= last {
			t.Errorf("section %s is not after the one before it", s.Name)
		}
		last = i
	}
	if p.InstructionsFile != "AGENTS.md" {
		t.Errorf("InstructionsFile = %q, want AGENTS.md", p.InstructionsFile)
	}
}

// TestPromptStable checks that two builds a few hours apart on the same
// day are byte-identical, which is what lets prompt caches hit.
func TestPromptStable(t *testing.T) {
	dir := promptFixture(t)
	a := buildTestPrompt(t, dir, Options{Tools: testTools, Examples: testExamples})
	b := buildTestPrompt(t, dir, Options{Tools: testTools, Examples: testExamples,
		Now: func() time.Time { return fixedClock().Add(5 * time.Hour) }})
	if a.String() != b.String() {
		t.Error("prompt changed within the same day")
	}
}

func TestInstructionsChoice(t *testing.T) {
	tests := []struct {
		files map[string]string
		want  string // file used, "" for none
	}{
		{map[string]string{"AGENTS.md": "a", "GEMINI.md": "g", "CLAUDE.md": "c"}, "AGENTS.md"},
		{map[string]string{"GEMINI.md": "g", "CLAUDE.md": "c"}, "GEMINI.md"},
		{map[string]string{"CLAUDE.md": "c"}, "CLAUDE.md"},
		{map[string]string{"README.md": "r"}, ""},
	}
	for _, tt := range tests {
		dir := t.TempDir()
		writeFiles(t, dir, tt.files)
		p := buildTestPrompt(t, dir, Options{})
		if p.InstructionsFile != tt.want {
			t.Errorf("files %v: InstructionsFile = %q, want %q", tt.files, p.InstructionsFile, tt.want)
		}
		sec := p.Section(SectionInstructions)
		if (tt.want == "") != (sec == "") {
			t.Errorf("files %v: instructions section = %q", tt.files, sec)
		}
		if tt.want != "" && !strings.Contains(sec, tt.files[tt.want]) {
			t.Errorf("files %v: section %q lacks the file's text", tt.files, sec)
		}
	}
}

func TestInstructionsBounded(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := range 2000 {
		b.WriteString(strings.Repeat("é", i%7) + " line of the conventions\n")
	}
	if err := os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	p := buildTestPrompt(t, dir, Options{MaxInstructions: 1000})
	sec := p.Section(SectionInstructions)
	if len(sec) > 1200 {
		t.Errorf("instructions section is %d bytes, want about 1000", len(sec))
	}
	if !strings.Contains(sec, "AGENTS.md is cut here") {
		t.Errorf("truncated section does not say so:\n%s", sec)
	}
	body := sec[:strings.Index(sec, "[AGENTS.md is cut")]
	if !strings.HasSuffix(strings.TrimSpace(body), "line of the conventions") {
		t.Errorf("cut is not at a line end:\n%s", body)
	}
}

func TestCatalog(t *testing.T) {
	got := renderCatalog(testTools)
	want := `# Tools

## read_file
Read a text file.
Errors: FILE_NOT_FOUND.
- file_path (required): path relative to the project root
- start_line (integer): first line, 1-based

## write_file
Write a text file.
- operation_type (required, create|rewrite|partial): what to do
- content (required): the text, verbatim
- backup (boolean)
`
	if got != want {
		t.Errorf("renderCatalog =\n%s\nwant\n%s", got, want)
	}
	if renderCatalog(nil) != "" {
		t.Error("an empty catalog should render nothing")
	}
}

func TestEstimateTokens(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{"", 0},
		{"abcd", 1},
		{"abcde", 2},
		{"📝 a", 2},
		{"日本語", 3},
	}
	for _, tt := range tests {
		if got := EstimateTokens(tt.in); got != tt.want {
			t.Errorf("EstimateTokens(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestParseStyle(t *testing.T) {
	for in, want := range map[string]Style{"": Emoji, "emoji": Emoji, "PLAIN": Plain} {
		if got, err := ParseStyle(in); err != nil || got != want {
			t.Errorf("ParseStyle(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := ParseStyle("fancy"); err == nil {
		t.Error("ParseStyle(fancy) succeeded, want an error")
	}
}

// TestInstructionsNeverLeaveTheProject checks that an instructions file
// that is a symlink out of the project, binary, or a folder is replaced by
// a note and never read into the prompt.
func TestInstructionsNeverLeaveTheProject(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "credentials")
	if err := os.WriteFile(secret, []byte("aws_secret_access_key=SECRET123"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		setup func(dir string) error
		want  string // in the section
	}{
		{"symlink out of the project", func(dir string) error {
			return os.Symlink(secret, filepath.Join(dir, "AGENTS.md"))
		}, "points outside the project folder"},
		{"binary file", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte("ok\x00\xff\xfe binary"), 0o644)
		}, "not UTF-8 text"},
		{"folder", func(dir string) error {
			return os.Mkdir(filepath.Join(dir, "CLAUDE.md"), 0o755)
		}, "not a regular file"},
		{"FIFO does not hang", func(dir string) error {
			return syscall.Mkfifo(filepath.Join(dir, "AGENTS.md"), 0o644)
		}, "not a regular file"},
		{"symlink loop", func(dir string) error {
			return os.Symlink("AGENTS.md", filepath.Join(dir, "AGENTS.md"))
		}, "symlink loop"},
		{"symlink inside the project is read", func(dir string) error {
			if err := os.WriteFile(filepath.Join(dir, "docs.md"), []byte("use tabs"), 0o644); err != nil {
				return err
			}
			return os.Symlink("docs.md", filepath.Join(dir, "AGENTS.md"))
		}, "use tabs"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := tc.setup(dir); err != nil {
				t.Fatal(err)
			}
			sec := buildTestPrompt(t, dir, Options{}).Section(SectionInstructions)
			if !strings.Contains(sec, tc.want) {
				t.Errorf("instructions section = %q, want it to contain %q", sec, tc.want)
			}
			if strings.Contains(sec, "SECRET123") {
				t.Errorf("the section leaks a file outside the project: %q", sec)
			}
		})
	}
}

func TestTreeHidesLinkTargetsOutside(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.txt": "a"})
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../../x", filepath.Join(dir, "up")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.txt", filepath.Join(dir, "in")); err != nil {
		t.Fatal(err)
	}
	tree, err := BuildTree(t.Context(), dir, TreeOptions{Style: Plain})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"out -> (outside the project)", "up -> (outside the project)", "in -> a.txt"} {
		if !strings.Contains(tree.Text, want) {
			t.Errorf("tree lacks %q:\n%s", want, tree.Text)
		}
	}
	if strings.Contains(tree.Text, "/etc/passwd") {
		t.Errorf("tree shows a path outside the project:\n%s", tree.Text)
	}
}
