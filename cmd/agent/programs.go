package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/tools/programs"
	"github.com/agentcli/agent/tools/shell"
)

// programs is the resolver of the helper programs the agent starts
// outside the sandbox for the project at root (bubblewrap, prlimit,
// espeak-ng, tmux, git, the editor, MCP servers): never from a PATH entry
// inside the project or a cache commands may write, and from the user's
// own [programs] table first. One per project folder and process, so
// each program is found once, at its first use, whatever a command
// plants afterwards.
func (f *factory) programs(root string, cfg config.Config) *programs.Resolver {
	f.progMu.Lock()
	defer f.progMu.Unlock()
	if r := f.progs[root]; r != nil {
		return r
	}
	r := programs.New(programs.Options{
		Path:      f.environ()["PATH"],
		Untrusted: shell.Writable(root, shellOptions(cfg)),
		Fixed:     cfg.Programs,
	})
	if f.progs == nil {
		f.progs = map[string]*programs.Resolver{}
	}
	f.progs[root] = r
	return r
}

// editorCommand is the command that edits a file ($VISUAL, else $EDITOR,
// else vi), split into words as a shell would ("code --wait"), its
// program found through progs; the file's path goes after it.
func editorCommand(env map[string]string, progs *programs.Resolver) ([]string, error) {
	line := firstNonEmpty(env["VISUAL"], env["EDITOR"], "vi")
	words, err := shellWords(line)
	if err != nil || len(words) == 0 {
		return nil, fmt.Errorf("editor %q: %v", line, errors.Join(err, errors.New("write it as a program and its arguments")))
	}
	prog, err := progs.Find(words[0])
	if err != nil {
		return nil, fmt.Errorf("editor: %w", err)
	}
	return append([]string{prog}, words[1:]...), nil
}

// shellWords splits s into words as sh does for a simple command:
// blanks separate words, single quotes keep everything, double quotes
// keep all but \" \\ \$ and \`, a backslash outside quotes keeps the next
// character. Anything else a shell would act on (; | & < > ( ) $ `) is
// refused: an editor setting is a program and its arguments.
func shellWords(s string) ([]string, error) {
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
