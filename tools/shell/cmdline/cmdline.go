// Package cmdline reads a command line as a shell would and judges it
// against the user's command rules ("rm -rf", "git push").
//
// Parse finds every program a line runs: each simple command of a list,
// pipeline, subshell or group, of a function body, of a command or
// process substitution, of a `bash -c` or `eval` string (parsed again,
// to a bounded depth), and the command that a wrapper such as env,
// timeout, sudo, xargs or `find -exec` runs, with the wrapper's own
// options skipped. Words come with their quotes and backslashes removed;
// a word whose value is only known when the line runs (a variable, a
// command substitution, a glob) is marked so, and so is a line whose
// programs cannot be known at all (a variable in a program position,
// eval of a variable, a sourced file, a shell reading a script).
//
// A deny rule covers a line when it covers one of its commands, and is
// unsure when a command might be one it covers depending on what the
// line computes; an allow rule covers a line only when every command is
// covered and nothing is decided at run time (rule.go).
package cmdline

import (
	"fmt"
	"strings"

	"github.com/agentcli/agent/internal/termtext"
	"mvdan.cc/sh/v3/syntax"
)

// Word is one word of a command as the program would receive it.
type Word struct {
	// Text is the word with quotes and backslashes removed; for a word
	// decided at run time, its source text.
	Text string
	// Dynamic is true when the value is only known when the line runs.
	Dynamic bool
	// Fields is true for a dynamic word that the shell may split or
	// glob into any number of words (an unquoted $x, *).
	Fields bool
}

// Command is one program that a line runs.
type Command struct {
	// Words are the program and its arguments.
	Words []Word
	// Via says how it was reached ("" on the line itself, "bash -c",
	// "xargs", "find -exec", "timeout"...).
	Via string
	// MoreArgs is true when more arguments come at run time (xargs adds
	// what it reads).
	MoreArgs bool
	// Assigns names the variables set for this command only (FOO=1 cmd).
	Assigns []string
	// Redirects is true when the command redirects its output to a file
	// other than /dev/null, or its input from a file or here-document
	// (joining or closing descriptors does not count).
	Redirects bool
	// parent is 1 + the index of the wrapper whose words hold this
	// command from its word at on (timeout 5 go test: go test is at 2 in
	// timeout's); 0 when none does. An allow rule that covers the
	// wrapper's words beyond at covers this command too.
	parent, at int
}

// Program is the command's program name: its first word without a
// folder ("/usr/bin/git" is "git"); "" when it is dynamic.
func (c Command) Program() string {
	if len(c.Words) == 0 || c.Words[0].Dynamic {
		return ""
	}
	return programName(c.Words[0].Text)
}

// Line is a parsed command line.
type Line struct {
	// Commands are the programs it runs, in the order they appear.
	Commands []Command
	// Unknown are the reasons what the line runs cannot be known without
	// running it ("the program is decided at run time: $(echo git)").
	Unknown []string
	// Dynamic is true when a word anywhere in the line is decided at run
	// time (a variable, a substitution, a glob), even in an argument.
	Dynamic bool
}

// Limits of Parse: how deep `bash -c` and eval strings are parsed again,
// and how many commands one line may hold, before the line is taken as
// unknown.
const (
	maxDepth    = 4
	maxCommands = 2000
)

// Parse reads line as bash would (a superset of what /bin/sh reads) and
// returns what it runs. It never fails: a line that does not parse is
// returned with a reason in Unknown.
func Parse(line string) Line {
	p := &parser{}
	p.parse(line, "", 0)
	return p.line
}

type parser struct {
	line Line
	// arith is set when the line evaluates arithmetic (or an array
	// subscript in a variable's name), and quoted is set when a literal
	// holds command-substitution text: bash evaluates a variable's value
	// inside arithmetic, so together they can run a command that no word
	// shows.
	arith, quoted bool
	// What the line tells git besides its words (git.go): settings in
	// the environment, a config file it reads from a place the line
	// chooses or that the line writes, and how many git commands run.
	gitEnv         map[string]Word
	gitConfigFrom  string
	gitConfigWrite bool
	gitRuns        int
}

// add records a command the line runs.
func (p *parser) add(c Command) {
	if len(p.line.Commands) >= maxCommands {
		p.unknown("too many commands to check")
		return
	}
	for _, word := range c.Words {
		p.line.Dynamic = p.line.Dynamic || word.Dynamic
	}
	p.line.Commands = append(p.line.Commands, c)
}

func (p *parser) unknown(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	for _, u := range p.line.Unknown {
		if u == msg {
			return
		}
	}
	p.line.Unknown = append(p.line.Unknown, msg)
}

// parse reads src, a line or a string that a shell runs (via names how it
// was reached), and adds what it runs to p.line.
func (p *parser) parse(src, via string, depth int) {
	if depth > maxDepth {
		p.unknown("commands nested too deeply to check: %s", clip(src))
		return
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		p.unknown("the command does not parse as a shell line (%s)", shortErr(err))
		return
	}
	w := walker{p: p, src: src, via: via, depth: depth}
	for _, s := range f.Stmts {
		w.stmt(s)
	}
	if depth > 0 {
		return
	}
	if p.arith && p.quoted {
		p.unknown("arithmetic can run a command held in quoted text")
	}
	if p.gitRuns > 0 && p.gitConfigFrom != "" {
		p.unknown("%s", p.gitConfigFrom)
	}
	if p.gitRuns > 0 && p.gitConfigWrite {
		p.unknown("the line writes a git config file and runs git, whose aliases and programs that file can change")
	}
}

// programName is a program word without its folder.
func programName(s string) string {
	if i := strings.LastIndexByte(s, '/'); i >= 0 && i < len(s)-1 {
		return s[i+1:]
	}
	return s
}

// clip shortens source text for a reason.
func clip(s string) string { return termtext.Clip(termtext.OneLine(s), 60) }

func shortErr(err error) string {
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return clip(s)
}
