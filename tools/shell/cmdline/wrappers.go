package cmdline

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// optSpec says how a wrapper's own options are written, so that the
// command it runs is found after them.
type optSpec struct {
	withArg  string   // short options that take an argument (sudo -u USER)
	longArg  []string // long options that take an argument written apart
	operands int      // words before the command (timeout's duration)
	assigns  bool     // NAME=VALUE words may come before the command
	dashOpt  bool     // "-" alone is an option (env -)
	noRun    string   // short options after which nothing runs (command -v)
	moreArgs bool     // the command gets more arguments at run time
	split    string   // the option whose argument holds the command's first words (env -S)
}

// wrapper returns how the options of a program that runs the command
// given in its arguments are written; ok is false for other programs. (A
// switch rather than a map: nothing to build when the agent starts.)
func wrapper(name string) (spec optSpec, ok bool) {
	switch name {
	case "env":
		return optSpec{withArg: "uCSP", longArg: []string{"--unset", "--chdir", "--split-string"}, assigns: true, dashOpt: true, split: "S"}, true
	case "exec":
		return optSpec{withArg: "a"}, true
	case "command":
		return optSpec{noRun: "vV"}, true
	case "builtin", "nohup", "setsid", "busybox":
		return optSpec{}, true
	case "nice":
		return optSpec{withArg: "n", longArg: []string{"--adjustment"}}, true
	case "timeout":
		return optSpec{withArg: "ks", longArg: []string{"--kill-after", "--signal"}, operands: 1}, true
	case "sudo":
		return optSpec{withArg: "CDghpRrTtUu", noRun: "elKVv", assigns: true, longArg: []string{
			"--close-from", "--chdir", "--group", "--host", "--prompt", "--chroot", "--role",
			"--type", "--command-timeout", "--other-user", "--user"}}, true
	case "doas":
		return optSpec{withArg: "uC"}, true
	case "time":
		return optSpec{withArg: "fo", longArg: []string{"--format", "--output"}}, true
	case "stdbuf":
		return optSpec{withArg: "ioe", longArg: []string{"--input", "--output", "--error"}}, true
	case "ionice":
		return optSpec{withArg: "cnpPu", longArg: []string{"--class", "--classdata", "--pid", "--pgid", "--uid"}}, true
	case "xargs":
		return optSpec{withArg: "adEILnPs", moreArgs: true, longArg: []string{
			"--arg-file", "--delimiter", "--max-args", "--max-procs", "--max-chars", "--process-slot-var"}}, true
	}
	return optSpec{}, false
}

// isShell reports whether a program is a shell, which runs the string
// after -c, or a script from a file or its input.
func isShell(name string) bool {
	switch name {
	case "sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash", "posh", "rbash":
		return true
	}
	return false
}

// unwrap finds the command a wrapper runs, after its own options.
func (w walker) unwrap(name string, spec optSpec, c Command) {
	args := c.Words[1:]
	assigns := slices.Clone(c.Assigns)
	var front []string // the values of env -S
	i := 0
options:
	for i < len(args) {
		a, t := args[i], args[i].Text
		switch {
		case spec.assigns && isAssignment(t) && !a.Fields:
			n, v, _ := strings.Cut(t, "=")
			w.assign(n, Word{Text: v, Dynamic: a.Dynamic})
			assigns = append(assigns, n)
			i++
			continue
		case a.Dynamic:
			w.p.unknown("what %s runs is decided at run time: %s", name, clip(t))
			return
		case t == "--":
			i++
			break options
		case t == "-" && spec.dashOpt:
		case strings.HasPrefix(t, "--"):
			opt, val, eq := strings.Cut(t, "=")
			if !eq && slices.Contains(spec.longArg, opt) {
				if i+1 < len(args) {
					val = args[i+1].Text
				}
				i++
			}
			if opt == "--split-string" && spec.split != "" {
				front = append(front, val)
			}
		case len(t) > 1 && t[0] == '-':
			for j := 1; j < len(t); j++ {
				if strings.IndexByte(spec.noRun, t[j]) >= 0 {
					return // command -v, sudo -l: nothing runs
				}
				if strings.IndexByte(spec.withArg, t[j]) < 0 {
					continue
				}
				val := t[j+1:]
				if val == "" && i+1 < len(args) {
					i++
					val = args[i].Text
					if args[i].Fields {
						w.p.unknown("what %s runs is decided at run time: %s", name, clip(val))
						return
					}
				}
				if strings.IndexByte(spec.split, t[j]) >= 0 {
					front = append(front, val)
				}
				break
			}
		default:
			break options
		}
		i++
	}
	for n := 0; n < spec.operands && i < len(args); n++ {
		if args[i].Fields {
			w.p.unknown("what %s runs is decided at run time: %s", name, clip(args[i].Text))
			return
		}
		i++
	}
	var words []Word
	for _, f := range front {
		split, ok := shellWords(f)
		if !ok {
			w.p.unknown("what %s runs is decided at run time: %s", name, clip(f))
			return
		}
		words = append(words, split...)
	}
	words = append(words, args[i:]...)
	if len(words) == 0 && spec.moreArgs {
		words = []Word{{Text: "echo"}} // xargs alone runs echo
	}
	if len(words) == 0 {
		return
	}
	w.command(Command{Words: words, Via: name, MoreArgs: c.MoreArgs || spec.moreArgs, Assigns: assigns, Redirects: c.Redirects})
}

// shellWords splits s into words as a shell would, when they are all
// literal.
func shellWords(s string) ([]Word, bool) {
	f, err := syntax.NewParser().Parse(strings.NewReader(s), "")
	if err != nil || len(f.Stmts) != 1 {
		return nil, false
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 || len(f.Stmts[0].Redirs) > 0 {
		return nil, false
	}
	w := walker{p: &parser{}, src: s}
	var words []Word
	for _, a := range call.Args {
		word := w.word(a)
		if word.Dynamic {
			return nil, false
		}
		words = append(words, word)
	}
	return words, true
}

// isAssignment reports whether word is NAME=VALUE.
func isAssignment(word string) bool {
	name, _, ok := strings.Cut(word, "=")
	if !ok || name == "" {
		return false
	}
	for i, c := range name {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// shell looks into a shell's -c string; a shell that reads a script from
// a file or its input runs what cannot be known here.
func (w walker) shell(name string, args []Word) {
	run := false
	i := 0
options:
	for ; i < len(args); i++ {
		a, t := args[i], args[i].Text
		switch {
		case a.Dynamic && run:
			break options // the -c string
		case a.Dynamic:
			w.p.unknown("what %s runs is decided at run time: %s", name, clip(t))
			return
		case t == "--" || t == "-":
			i++
			break options
		case t == "--version" || t == "--help":
			return
		case t == "--rcfile" || t == "--init-file":
			i++
		case strings.HasPrefix(t, "--"):
		case len(t) > 1 && (t[0] == '-' || t[0] == '+'):
			for _, ch := range t[1:] {
				switch ch {
				case 'c':
					run = true
				case 'o', 'O':
					i++ // -o OPTION
				}
			}
		default:
			break options
		}
	}
	switch {
	case run && i < len(args):
		if args[i].Dynamic {
			w.p.unknown("%s -c runs text decided at run time: %s", name, clip(args[i].Text))
			return
		}
		w.p.parse(args[i].Text, name+" -c", w.depth+1)
	case run:
	case i < len(args):
		w.p.unknown("%s runs the commands in a file: %s", name, clip(args[i].Text))
	default:
		w.p.unknown("%s reads the commands it runs from its input", name)
	}
}

// gitGlobalArg reports whether opt is one of git's own options (before
// the subcommand) that take the next word as their argument.
func gitGlobalArg(opt string) bool {
	switch opt {
	case "-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--attr-source", "--super-prefix":
		return true
	}
	return false
}

// gitSubcommand returns the index in words (the program first) of git's
// subcommand, after git's own options; unsure is true when an option
// before it is decided at run time.
func gitSubcommand(words []Word) (i int, unsure bool) {
	for i = 1; i < len(words); i++ {
		t := words[i].Text
		switch {
		case words[i].Dynamic:
			return i, true
		case gitGlobalArg(t):
			i++
		case strings.HasPrefix(t, "-"):
		default:
			return i, false
		}
	}
	return i, false
}

// gitConfig looks into the settings given with git -c that git runs as
// commands (an alias starting with "!", core.pager, core.sshCommand...).
func (w walker) gitConfig(args []Word) {
	for i := 0; i < len(args); i++ {
		t := args[i].Text
		switch {
		case args[i].Dynamic:
			return
		case t == "-c" && i+1 < len(args):
			i++
			w.gitSetting(args[i])
		case strings.HasPrefix(t, "--config-env"):
			w.p.unknown("git --config-env takes a setting from the environment")
		case gitGlobalArg(t):
			i++
		case !strings.HasPrefix(t, "-"):
			return
		}
	}
}

func (w walker) gitSetting(s Word) {
	if s.Dynamic {
		w.p.unknown("git -c with a setting decided at run time: %s", clip(s.Text))
		return
	}
	key, val, _ := strings.Cut(s.Text, "=")
	via := "git -c " + strings.ToLower(key)
	switch GitSetting(key) {
	case GitBangCommand:
		if cmd, ok := strings.CutPrefix(val, "!"); ok {
			w.valueRuns(via, Word{Text: cmd})
		}
	case GitFile:
		w.p.unknown("%s makes git run code from a file", via)
	case GitCommand:
		w.valueRuns(via, Word{Text: val})
	}
}
