package cmdline

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// word is x as the program receives it: quotes and backslashes removed,
// or marked dynamic with its source text.
func (w walker) word(x *syntax.Word) Word {
	var b strings.Builder
	var out Word
	for _, part := range x.Parts {
		switch pt := part.(type) {
		case *syntax.Lit:
			s, glob := unquote(pt.Value)
			if glob {
				out.Dynamic, out.Fields = true, true
			}
			b.WriteString(s)
		case *syntax.SglQuoted:
			// $'\x72m' is rm to bash but not to /bin/sh: either way its
			// value is not the text written.
			out.Dynamic = out.Dynamic || pt.Dollar
			b.WriteString(pt.Value)
		case *syntax.DblQuoted:
			for _, q := range pt.Parts {
				if l, ok := q.(*syntax.Lit); ok {
					b.WriteString(unquoteDouble(l.Value))
				} else {
					out.Dynamic = true
				}
			}
		default: // $x, ${x}, $(...), $((...)), <(...), extended globs
			out.Dynamic, out.Fields = true, true
		}
	}
	if out.Dynamic {
		out.Text = w.source(x)
	} else {
		out.Text = b.String()
	}
	return out
}

// source is the text of n as written.
func (w walker) source(n syntax.Node) string {
	start, end := int(n.Pos().Offset()), int(n.End().Offset())
	if start < 0 || end > len(w.src) || start > end {
		return ""
	}
	return w.src[start:end]
}

// unquote removes the backslashes of unquoted text and reports whether
// the text is a pattern the shell expands: a glob (*, ?, [...]) or a
// brace expansion ({a,b}, {1..3}).
func unquote(s string) (string, bool) {
	if !strings.ContainsAny(s, `\*?[{`) {
		return s, false
	}
	var b strings.Builder
	glob := false
	open := -1 // index in b of an unescaped [ or {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			i++
			b.WriteByte(s[i])
			continue
		case c == '*' || c == '?':
			glob = true
		case c == '[' || c == '{':
			open = b.Len()
		case c == ']' && open >= 0 && b.String()[open] == '[':
			glob, open = true, -1
		case c == '}' && open >= 0 && b.String()[open] == '{':
			inner := b.String()[open+1:]
			glob = glob || strings.Contains(inner, ",") || strings.Contains(inner, "..")
			open = -1
		}
		b.WriteByte(c)
	}
	return b.String(), glob
}

// unquoteDouble removes the backslashes that escape a character inside
// double quotes.
func unquoteDouble(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// assign checks a variable set by the line: some make the shell or a
// program run a command held in the value, or load a file.
func (w walker) assign(name string, value Word) {
	if w.gitEnvVar(name, value) {
		return
	}
	switch {
	case name == "BASH_ENV" || name == "ENV" || strings.HasPrefix(name, "BASH_FUNC_") || name == "LD_PRELOAD" || name == "LD_AUDIT":
		w.p.unknown("%s makes programs run code from elsewhere", name)
	case name == "PATH":
		w.p.unknown("PATH changes which program a name runs")
	case strings.HasPrefix(name, "PS") && len(name) == 3:
		if value.Dynamic || strings.Contains(value.Text, "$(") || strings.Contains(value.Text, "`") {
			w.p.unknown("%s can run a command when the shell prints it", name)
		}
	case commandVar(name):
		w.valueRuns(name+"=", value)
	}
}

// commandVar reports whether a variable holds a command line that a
// program runs.
func commandVar(name string) bool {
	switch name {
	case "PROMPT_COMMAND", "GIT_SSH_COMMAND", "GIT_SSH", "GIT_PAGER", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR",
		"GIT_EXTERNAL_DIFF", "GIT_ASKPASS", "SSH_ASKPASS", "PAGER", "EDITOR", "VISUAL":
		return true
	}
	return false
}

// valueRuns parses a value that a program runs as a shell line.
func (w walker) valueRuns(via string, value Word) {
	if value.Dynamic {
		w.p.unknown("%s runs a command decided at run time: %s", via, clip(value.Text))
		return
	}
	if value.Text != "" {
		w.p.parse(value.Text, via, w.depth+1)
	}
}
