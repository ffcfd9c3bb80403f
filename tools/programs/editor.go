package programs

import (
	"cmp"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// Editor is the command that edits a file ($VISUAL, else $EDITOR, else
// vi, from env), split into words as a shell would ("code --wait"), its
// program found as every helper program is; the file's path goes after
// it.
func (r *Resolver) Editor(env map[string]string) ([]string, error) {
	line := cmp.Or(env["VISUAL"], env["EDITOR"], "vi")
	words, err := Words(line)
	if err != nil || len(words) == 0 {
		return nil, fmt.Errorf("editor %q: %v", line, errors.Join(err, errors.New("write it as a program and its arguments")))
	}
	if why := r.untrustedPath(words[0]); why != "" {
		return nil, fmt.Errorf("editor %s: not run, it lies %s, where a sandboxed command could have written it; set $EDITOR to a program outside it", words[0], why)
	}
	prog, err := r.Find(words[0])
	if err != nil {
		return nil, fmt.Errorf("editor: %w", err)
	}
	return append([]string{prog}, words[1:]...), nil
}

// untrustedPath says where the absolute program path p lies when that is
// a place a sandboxed command may write ("inside the project"), itself or
// the file its links lead to; "" for a name or a trusted path. An
// absolute $EDITOR is the person's choice, but one inside the project
// (a project's .venv/bin/myed) is as plantable as a PATH entry there.
func (r *Resolver) untrustedPath(p string) string {
	if !filepath.IsAbs(p) {
		return ""
	}
	p = filepath.Clean(p)
	if pl, ok := r.inside(p); ok {
		return pl.What
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		if pl, ok := r.inside(real); ok {
			return pl.What + " (a link to " + real + ")"
		}
	}
	return ""
}

// Words splits s into words as sh does for a simple command:
// blanks separate words, single quotes keep everything, double quotes
// keep all but \" \\ \$ and \`, a backslash outside quotes keeps the next
// character. Anything else a shell would act on (; | & < > ( ) $ `) is
// refused: an editor setting is a program and its arguments.
func Words(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
			continue
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("a single quote is not closed")
			}
			w.WriteString(s[i+1 : i+1+j])
			i += j + 1
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
					i++
				} else if s[i] == '$' || s[i] == '`' {
					return nil, fmt.Errorf("%c inside double quotes is not supported", s[i])
				}
				w.WriteByte(s[i])
			}
			if i == len(s) {
				return nil, errors.New("a double quote is not closed")
			}
		case c == '\\':
			if i+1 == len(s) {
				return nil, errors.New("it ends with a backslash")
			}
			i++
			w.WriteByte(s[i])
		case strings.IndexByte(";|&<>()$`", c) >= 0:
			return nil, fmt.Errorf("%c is not supported", c)
		default:
			w.WriteByte(c)
		}
		inWord = true
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}
