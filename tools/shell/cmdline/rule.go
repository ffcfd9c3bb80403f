package cmdline

import (
	"errors"
	"fmt"
	"strings"
)

// Rule is one command rule: a program and the words and options it must
// be given ("git push", "rm -rf", "npm publish --access public").
type Rule struct {
	raw     []string // the words as written
	program string   // the program's name, without a folder
	short   string   // short option letters, each needed ("rf")
	long    []string // long options, each needed ("--force", "--force=yes")
	words   []string // other words, needed in this order
	git     bool     // the first of words is git's subcommand
}

// Verdict is what a rule makes of a line.
type Verdict int

// The verdicts of Judge.
const (
	// NoMatch: no command of the line is one the rule covers.
	NoMatch Verdict = iota
	// Unsure: a command might be one the rule covers, depending on what
	// the line computes when it runs, or what runs cannot be known.
	Unsure
	// Match: a command of the line is one the rule covers.
	Match
)

// ErrRule is returned by ParseRule for a pattern that is not a command.
var ErrRule = errors.New(`a command rule is a program and its words, like "git push" or "rm -rf"`)

// ParseRule reads a rule's pattern, with the shell's quoting.
func ParseRule(pattern string) (Rule, error) {
	words, ok := shellWords(pattern)
	if !ok || len(words) == 0 {
		return Rule{}, ErrRule
	}
	r := Rule{program: programName(words[0].Text)}
	for _, w := range words {
		r.raw = append(r.raw, w.Text)
	}
	var long []string
	for _, w := range words[1:] {
		switch t := w.Text; {
		case t == "--" || t == "-":
			r.words = append(r.words, t)
		case strings.HasPrefix(t, "--"):
			long = append(long, t)
		case strings.HasPrefix(t, "-"):
			r.short += t[1:]
		default:
			r.words = append(r.words, t)
		}
	}
	r.git = r.program == "git" && len(r.words) > 0
	al := aliasesOf(r.program, r.words)
	for _, l := range long {
		if c, ok := al.short(l); ok {
			r.short += string(c)
		} else {
			r.long = append(r.long, l)
		}
	}
	r.short = al.letters(r.short)
	return r, nil
}

// Judge reports whether the rule covers a command of l, as a deny rule
// does. A command it covers decides (Match) even when other parts of the
// line cannot be known; otherwise a line whose programs cannot be known,
// or a command the rule may cover depending on a word decided at run
// time, is Unsure, with the reason in words.
func (r Rule) Judge(l Line) (Verdict, string) {
	reason := ""
	for _, c := range l.Commands {
		switch v, why := r.covers(c); v {
		case Match:
			return Match, ""
		case Unsure:
			if reason == "" {
				reason = why
			}
		}
	}
	if len(l.Unknown) > 0 {
		return Unsure, l.Unknown[0]
	}
	if reason != "" {
		return Unsure, reason
	}
	return NoMatch, ""
}

// covers judges one command.
func (r Rule) covers(c Command) (Verdict, string) {
	if len(c.Words) == 0 || c.Words[0].Dynamic {
		return NoMatch, "" // in the line's Unknown already
	}
	if programName(c.Words[0].Text) != r.program {
		return NoMatch, ""
	}
	args, words := c.Words[1:], r.words
	al := aliasesOf(r.program, nil)
	if r.git {
		i, unsure := gitSubcommand(c.Words)
		switch {
		case unsure:
			return Unsure, fmt.Sprintf("git's subcommand is decided at run time: %s", clip(c.Words[i].Text))
		case i >= len(c.Words) || !sameGitCommand(words[0], c.Words[i].Text):
			return NoMatch, ""
		}
		args, words = c.Words[i+1:], words[1:]
		al = aliasesOf("git", r.words)
	}
	var short strings.Builder
	var long []string
	var operands []Word
	var dynamic *Word // the first word decided at run time
	ended := false
	for i, a := range args {
		switch t := a.Text; {
		case a.Dynamic:
			operands = append(operands, a)
			if dynamic == nil {
				dynamic = &args[i]
			}
		case ended || t == "-" || !strings.HasPrefix(t, "-"):
			operands = append(operands, a)
		case t == "--":
			ended = true
		case strings.HasPrefix(t, "--"):
			long = append(long, t)
			if c, ok := al.abbrev(t); ok {
				short.WriteByte(c)
			}
		default:
			short.WriteString(t[1:])
		}
	}
	have := al.letters(short.String())
	flags := true
	for i := 0; i < len(r.short); i++ {
		flags = flags && strings.IndexByte(have, r.short[i]) >= 0
	}
	for _, want := range r.long {
		flags = flags && hasLong(long, want)
	}
	order := inOrder(words, operands)
	if order == NoMatch && c.MoreArgs {
		order = Unsure // xargs may add the words
	}
	switch {
	case flags && order == Match:
		return Match, ""
	case order == NoMatch || !flags && dynamic == nil && !c.MoreArgs:
		return NoMatch, ""
	case dynamic != nil:
		return Unsure, fmt.Sprintf("what %s is given is decided at run time: %s", r.program, clip(dynamic.Text))
	}
	return Unsure, fmt.Sprintf("%s adds arguments to %s at run time", c.Via, r.program)
}

// inOrder reports whether want appear in operands in this order, other
// words between them: Match with known words, Unsure when it takes a
// word decided at run time (one that may split into several words
// stands for any number of them).
func inOrder(want []string, operands []Word) Verdict {
	v := Match
	j := 0
	for _, o := range operands {
		if j == len(want) {
			break
		}
		switch {
		case o.Fields:
			return Unsure
		case o.Dynamic:
			v = Unsure
			j++
		case o.Text == want[j]:
			j++
		}
	}
	if j < len(want) {
		return NoMatch
	}
	return v
}

// hasLong reports whether the command's long options give want:
// "--force" is given by --force, --force=x and an abbreviation such as
// --forc (GNU programs and git accept unique prefixes); "--force=x" only
// with that value.
func hasLong(have []string, want string) bool {
	wname, wval, wantVal := strings.Cut(want, "=")
	for _, h := range have {
		name, val, _ := strings.Cut(h, "=")
		if len(name) > 2 && strings.HasPrefix(wname, name) && (!wantVal || val == wval) {
			return true
		}
	}
	return false
}

// aliases are the options of a program spelled two ways, so that a rule
// written with one covers the other: rm's --recursive is -r, and so is
// -R. The value names the program ("rm", or "git push" for a git
// subcommand); most programs have none here.
type aliases string

// aliasedLong are the long options that have a short spelling somewhere.
var aliasedLong = [...]string{"--recursive", "--force"}

// aliasesOf returns the aliases of program (of git's subcommand when the
// program is git).
func aliasesOf(program string, words []string) aliases {
	if program == "git" && len(words) > 0 {
		program += " " + words[0]
	}
	return aliases(program)
}

// short returns the letter a long option is the same as.
func (a aliases) short(long string) (byte, bool) {
	switch {
	case a == "rm" && long == "--recursive":
		return 'r', true
	case (a == "rm" || a == "git push") && long == "--force":
		return 'f', true
	}
	return 0, false
}

// rmLetters maps rm's option letters to what a rule is about: -R is -r,
// and -f is dropped. rm's -f only keeps it from asking, and the agent's
// commands have no terminal, where rm asks nothing: rm -r deletes the
// tree rm -rf deletes (also as rm -r -- DIR -f, where -f is a file's
// name). So a rule rm -rf means a recursive removal, and rm -f any.
var rmLetters = strings.NewReplacer("R", "r", "f", "")

// letters maps short option letters to their canonical ones.
func (a aliases) letters(s string) string {
	if a != "rm" {
		return s
	}
	return rmLetters.Replace(s)
}

// abbrev returns the letter of the long option that opt names or
// abbreviates.
func (a aliases) abbrev(opt string) (byte, bool) {
	name, _, _ := strings.Cut(opt, "=")
	if len(name) <= 2 {
		return 0, false
	}
	for _, long := range aliasedLong {
		if c, ok := a.short(long); ok && strings.HasPrefix(long, name) {
			return c, true
		}
	}
	return 0, false
}

// Allowed returns the index of the rule that covers the first command of
// l when rules, as an allow list, cover the whole line: every command
// starts with the words of one of the rules, written as they are (a
// program's folder counts, and wrappers are commands of their own),
// sets no variable, redirects nothing but to /dev/null or another
// descriptor, and no word of the line is decided at run time. It returns
// -1 when they do not cover the line.
func Allowed(l Line, rules []Rule) int {
	if len(l.Unknown) > 0 || l.Dynamic || len(l.Commands) == 0 {
		return -1
	}
	by := make([]int, len(l.Commands)) // the rule covering each command
	for n, c := range l.Commands {
		i := allowing(c, rules)
		if i < 0 && c.parent > 0 && c.parent <= n {
			// uv run pytest under the rule "uv run pytest": the wrapper's
			// rule names this command's words too.
			if pi := by[c.parent-1]; len(rules[pi].raw) > c.at {
				i = pi
			}
		}
		if i < 0 {
			return -1
		}
		by[n] = i
	}
	return by[0]
}

// allowing returns the index of the first rule whose words start c, or
// -1.
func allowing(c Command, rules []Rule) int {
	if len(c.Assigns) > 0 || c.Redirects || c.MoreArgs {
		return -1
	}
	for i, r := range rules {
		if len(r.raw) > len(c.Words) {
			continue
		}
		ok := true
		for j, w := range r.raw {
			ok = ok && c.Words[j].Text == w
		}
		if ok {
			return i
		}
	}
	return -1
}
