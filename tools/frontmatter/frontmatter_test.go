package frontmatter

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

// show writes a value compactly: scalars quoted, lists in [], maps in {}.
func show(v Value) string {
	switch v.Kind {
	case List:
		parts := make([]string, len(v.Items))
		for i, it := range v.Items {
			parts[i] = show(it)
		}
		return "[" + strings.Join(parts, " ") + "]"
	case Map:
		return showFields(v.Fields)
	}
	return strconv.Quote(v.Text)
}

func showFields(fs []Field) string {
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = f.Key + ":" + show(f.Value)
	}
	return "{" + strings.Join(parts, " ") + "}"
}

func TestParse(t *testing.T) {
	for _, c := range []struct {
		name, doc  string
		want, body string
	}{
		{"no front matter", "# Title\nbody\n", "{}", "# Title\nbody\n"},
		{"a rule later is no front matter", "text\n---\nname: x\n---\n", "{}", "text\n---\nname: x\n---\n"},
		{"simple", "---\nname: pdf\ndescription: Does PDFs.\n---\nBody\n", `{name:"pdf" description:"Does PDFs."}`, "Body\n"},
		{"empty", "---\n---\nbody", "{}", "body"},
		{"blank and comment only", "---\n\n# nothing\n---\n", "{}", ""},
		{"colon in a plain value", "---\ndescription: Use when: the user asks\n---\n", `{description:"Use when: the user asks"}`, ""},
		{"url in a plain value", "---\nhome: https://example.com/a#b\n---\n", `{home:"https://example.com/a#b"}`, ""},
		{"trailing comment", "---\n# a comment\nname: x # the name\n---\n", `{name:"x"}`, ""},
		{"hash inside a word", "---\nd: C# tips\n---\n", `{d:"C# tips"}`, ""},
		{"double quotes and escapes", "---\nd: \"a \\\"b\\\" \\u00e9\\tc\\n\" # c\n---\n", `{d:"a \"b\" é\tc\n"}`, ""},
		{"single quotes", "---\nd: 'it''s: here'\n---\n", `{d:"it's: here"}`, ""},
		{"quoted over lines", "---\nd: \"one\n  two\n\n  three\\\n  four\"\n---\n", `{d:"one two\nthreefour"}`, ""},
		{"plain over lines", "---\nd: one\n  two\n\n  three\nn: x\n---\n", `{d:"one two\nthree" n:"x"}`, ""},
		{"plain on the next line", "---\nd:\n  just text\n  more\n---\n", `{d:"just text more"}`, ""},
		{"folded strip", "---\nd: >-\n  a\n  b\n\n  c\n---\n", `{d:"a b\nc"}`, ""},
		{"folded clip, more indented", "---\nd: >\n  a\n    code\n  b\n---\n", `{d:"a\n  code\nb\n"}`, ""},
		{"literal", "---\nd: |\n  a\n   b\n# kept\n---\n", `{d:"a\n b\n"}`, ""},
		{"literal keep", "---\nd: |+\n  a\n\nn: 1\n---\n", `{d:"a\n\n" n:"1"}`, ""},
		{"literal indentation digit", "---\nd: |2-\n    a\n  b\n---\n", `{d:"  a\nb"}`, ""},
		{"literal comment line inside", "---\nd: |\n  # not a comment\n  x\n---\n", `{d:"# not a comment\nx\n"}`, ""},
		{"text after a block header", "---\nd: | Use when needed.\nn: x\n---\n", `{d:"| Use when needed." n:"x"}`, ""},
		{"two chomping indicators", "---\nd: |+-\n  a\n---\n", `{d:"|+- a"}`, ""},
		{"empty block", "---\nd: |\nn: x\n---\n", `{d:"" n:"x"}`, ""},
		{"list", "---\ntools:\n  - Read\n  - Bash(git:*)\n---\n", `{tools:["Read" "Bash(git:*)"]}`, ""},
		{"compact list", "---\ntools:\n- a\n- 'b'\nname: x\n---\n", `{tools:["a" "b"] name:"x"}`, ""},
		{"list of maps", "---\nl:\n  - name: a\n    v: 1\n  - name: b\n---\n", `{l:[{name:"a" v:"1"} {name:"b"}]}`, ""},
		{"nested lists", "---\nl:\n  - - a\n    - b\n  -\n    - c\n  -\n---\n", `{l:[["a" "b"] ["c"] ""]}`, ""},
		{"nested map", "---\nmetadata:\n  author: org\n  version: \"1.0\"\nname: x\n---\n", `{metadata:{author:"org" version:"1.0"} name:"x"}`, ""},
		{"quoted key", "---\n\"a b\": 1\n'c': 2\n---\n", `{a b:"1" c:"2"}`, ""},
		{"flow list kept as text", "---\nargument-hint: [issue-number]\nh2: [file] [mode]\n---\n", `{argument-hint:"[issue-number]" h2:"[file] [mode]"}`, ""},
		{"null", "---\na: ~\nb: null\nc:\n---\n", `{a:"" b:"" c:""}`, ""},
		{"CRLF and BOM", "\ufeff---\r\nname: x\r\nd: |\r\n  a\r\n---\r\nbody\r\n", `{name:"x" d:"a\n"}`, "body\r\n"},
		{"closing line with blanks", "---\nname: x\n---  \nbody", `{name:"x"}`, "body"},
		{"indented document", "---\n  name: x\n  d: y\n---\n", `{name:"x" d:"y"}`, ""},
		{"Claude Code skill", "---\nname: explain-code\ndescription: Explains code with diagrams. Use when the user asks \"how does this work?\"\nallowed-tools: Read, Grep\nargument-hint: [file]\ndisable-model-invocation: false\n---\n\nWhen explaining code:\n",
			`{name:"explain-code" description:"Explains code with diagrams. Use when the user asks \"how does this work?\"" allowed-tools:"Read, Grep" argument-hint:"[file]" disable-model-invocation:"false"}`, "\nWhen explaining code:\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, body, err := Parse(c.doc)
			if err != nil {
				t.Fatalf("Parse(%q) error: %v", c.doc, err)
			}
			if got := showFields(m.Fields); got != c.want {
				t.Errorf("Parse(%q) = %s, want %s", c.doc, got, c.want)
			}
			if body != c.body {
				t.Errorf("Parse(%q) body = %q, want %q", c.doc, body, c.body)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	deep := "---\nl:\n" + strings.Repeat("- ", 40) + "x\n---\n"
	for _, c := range []struct {
		name, doc, want string
	}{
		{"not closed", "---\nname: x\n", "no closing --- line"},
		{"only the opening", "---", "no closing --- line"},
		{"key twice", "---\nname: a\nname: b\n---\n", `line 3: the key "name" is given twice`},
		{"tab indentation", "---\nm:\n\tk: v\n---\n", "line 3: a tab in the indentation"},
		{"quote not closed", "---\nd: \"abc\nn: x\n---\n", "line 2: the quoted value is never closed"},
		{"text after the quote", "---\nd: \"abc\" def\n---\n", "line 2: text after the closing quote"},
		{"comment needs a blank", "---\nd: 'abc'#x\n---\n", "line 2: text after the closing quote"},
		{"a list", "---\n- a\n- b\n---\n", "line 2: the front matter is a list"},
		{"plain text", "---\njust some text\n---\n", "line 2: expected key: value"},
		{"bad escape", "---\nd: \"a\\qb\"\n---\n", `line 2: a bad escape \q`},
		{"bad unicode escape", "---\nd: \"\\ud800\"\n---\n", `line 2: a bad escape \u`},
		{"more indented key", "---\na:\n    b: 1\n  c: 2\n---\n", "line 4: indented more than the key before it"},
		{"item among keys", "---\na: 1\n- b\n---\n", "line 3: a list item where a key: value line was expected"},
		{"less indented leftover", "---\n  a: 1\nb: 2\n---\n", "line 3: indented less than the keys before it"},
		{"nested too deep", deep, "nested more than 32 deep"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, body, err := Parse(c.doc)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Parse(%q) error = %v, want one saying %q", c.doc, err, c.want)
			}
			if body != c.doc {
				t.Errorf("Parse(%q) body = %q on error, want the whole document", c.doc, body)
			}
		})
	}
	if _, _, err := Parse("---\nname: x\n"); !errors.Is(err, ErrNotClosed) {
		t.Errorf("an unclosed front matter gives %v, want ErrNotClosed", err)
	}
}

func TestAccessors(t *testing.T) {
	m, _, err := Parse("---\nname: x\ntools:\n  - a\n  - b\nmeta:\n  k: v\nmixed:\n  - a\n  - k: v\n---\n")
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := m.Text("name"); !ok || got != "x" {
		t.Errorf("Text(name) = %q, %v, want x, true", got, ok)
	}
	for _, key := range []string{"tools", "meta", "absent"} {
		if got, ok := m.Text(key); ok {
			t.Errorf("Text(%s) = %q, true; want false for a list, a map or an absent key", key, got)
		}
	}
	v, _ := m.Get("tools")
	if got, ok := v.Strings(); !ok || strings.Join(got, ",") != "a,b" {
		t.Errorf("Strings(tools) = %q, %v, want [a b], true", got, ok)
	}
	for _, key := range []string{"name", "meta", "mixed"} {
		v, _ := m.Get(key)
		if got, ok := v.Strings(); ok {
			t.Errorf("Strings(%s) = %q, true; want false", key, got)
		}
	}
	if f := m.Fields[1]; f.Key != "tools" || f.Line != 3 {
		t.Errorf("second field = %s at line %d, want tools at line 3", f.Key, f.Line)
	}
}

// FuzzParse: no input makes Parse panic or hang, and what it returns
// holds together: on success the body is the end of the document; on
// failure the body is the whole document.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"---\nname: pdf\ndescription: Does PDFs: all of them.\n---\nBody\n",
		"---\nd: >-\n  a\n  b\n\n  c\nl:\n  - - a\n  - k: v\n    k2: |+\n      x\n\n---\n",
		"---\nd: \"a\\u00e9\\\n  b\"\ne: 'x''y'\n---\n",
		"---\n\tbad\n---\n",
		"\ufeff---\r\na: [b, c]\r\n---\r\n",
		"---\nl:\n- a\n-\n- - b\n---\n",
		"---\nd: |9\n x\n---\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		m, body, err := Parse(doc)
		if err != nil {
			if body != doc || len(m.Fields) != 0 {
				t.Fatalf("Parse(%q) failed (%v) but returned %d fields and body %q", doc, err, len(m.Fields), body)
			}
			return
		}
		if !strings.HasSuffix(doc, body) {
			t.Fatalf("Parse(%q) body %q is not the end of the document", doc, body)
		}
		for _, f := range m.Fields {
			if f.Line < 2 {
				t.Fatalf("Parse(%q): key %q at line %d, before the front matter", doc, f.Key, f.Line)
			}
		}
	})
}

// BenchmarkParse reads a typical SKILL.md: what discovery pays per skill.
func BenchmarkParse(b *testing.B) {
	doc := "---\nname: pdf-processing\ndescription: Extract PDF text, fill forms, merge files. Use when handling PDFs.\nlicense: Apache-2.0\nmetadata:\n  author: example-org\n  version: \"1.0\"\nallowed-tools:\n  - Bash(python:*)\n  - Read\n---\n\n# PDF processing\n\n" + strings.Repeat("Step text for the model.\n", 100)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Parse(doc); err != nil {
			b.Fatal(err)
		}
	}
}
