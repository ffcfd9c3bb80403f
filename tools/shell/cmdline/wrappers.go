package cmdline

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// optSpec says how a wrapper's own options are written, so that the
// command it runs is found after them.
type optSpec struct {
	withArg   string   // short options that take an argument (sudo -u USER)
	longArg   []string // long options that take an argument written apart
	operands  int      // words before the command (timeout's duration)
	assigns   bool     // NAME=VALUE words may come before the command
	dashOpt   bool     // "-" alone is an option (env -)
	noRun     string   // short options after which nothing runs (command -v)
	noRunLong []string // long options after which nothing runs (taskset --pid)
	moreArgs  bool     // the command gets more arguments at run time
	split     string   // the option whose argument holds the command's first words (env -S)
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
	case "taskset":
		return optSpec{operands: 1, noRun: "p", noRunLong: []string{"--pid"}}, true
	case "chrt":
		return optSpec{withArg: "TPD", longArg: []string{"--sched-runtime", "--sched-period", "--sched-deadline"},
			operands: 1, noRun: "pm", noRunLong: []string{"--pid", "--max"}}, true
	case "unshare":
		return optSpec{withArg: "SGRw", longArg: []string{"--setuid", "--setgid", "--root", "--wd", "--propagation",
			"--map-user", "--map-group", "--map-users", "--map-groups", "--setgroups"}}, true
	case "strace":
		return optSpec{withArg: "abeEIoOpPsSuUX", longArg: []string{"--output", "--attach", "--trace-path", "--env",
			"--user", "--columns", "--string-limit", "--summary-sort-by", "--trace", "--signal", "--status",
			"--abbrev", "--verbose", "--raw", "--read", "--write", "--fault", "--inject", "--quiet", "--decode-fds"}}, true
	case "ltrace":
		return optSpec{withArg: "aADeFlnopsuwx", longArg: []string{"--align", "--output", "--library", "--config", "--indent"}}, true
	case "prlimit":
		return optSpec{noRun: "p", noRunLong: []string{"--pid"}}, true
	case "fakeroot":
		return optSpec{withArg: "lisb", longArg: []string{"--lib", "--faked"}}, true
	case "chroot":
		return optSpec{operands: 1, longArg: []string{"--userspec", "--groups"}}, true
	case "setpriv":
		return optSpec{longArg: []string{"--reuid", "--regid", "--ruid", "--rgid", "--euid", "--egid", "--groups",
			"--inh-caps", "--ambient-caps", "--bounding-set", "--securebits", "--pdeathsig", "--selinux-label",
			"--apparmor-profile", "--landlock-access", "--landlock-rule"}}, true
	case "nsenter":
		return optSpec{withArg: "tSG", longArg: []string{"--target", "--setuid", "--setgid"}}, true
	case "numactl":
		return optSpec{withArg: "imNCpP", longArg: []string{"--interleave", "--membind", "--cpunodebind",
			"--physcpubind", "--preferred", "--preferred-many"}}, true
	case "cgexec":
		return optSpec{withArg: "g"}, true
	case "pkexec":
		return optSpec{longArg: []string{"--user"}}, true
	case "faketime":
		return optSpec{operands: 1}, true
	case "setarch":
		return optSpec{operands: 1}, true
	case "xvfb-run":
		return optSpec{withArg: "nsfep", longArg: []string{"--server-num", "--server-args", "--auth-file", "--error-file", "--xauth-protocol"}}, true
	case "proxychains", "proxychains4":
		return optSpec{withArg: "f"}, true
	case "valgrind", "eatmydata", "nocache", "catchsegv", "torsocks", "dbus-run-session", "linux32", "linux64":
		return optSpec{}, true
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
			if slices.Contains(spec.noRunLong, opt) {
				return // taskset --pid: nothing runs
			}
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
	child := Command{Words: words, Via: name, MoreArgs: c.MoreArgs || spec.moreArgs, Assigns: assigns, Redirects: c.Redirects}
	if len(front) == 0 && len(c.Words) == len(args)+1 {
		child.parent, child.at = w.cur, i+1
	}
	w.command(child)
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
