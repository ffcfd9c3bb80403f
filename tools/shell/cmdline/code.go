package cmdline

import (
	"slices"
	"strings"
)

// Programs that run code written in another language, given on the
// line (python -c, perl -e, an awk program, vim -c) or read from their
// input. What such code runs cannot be known without running it, so a
// line holding it is unknown, and a deny rule asks about it; a script in
// a file (python3 x.py, make) is the project's own code and is not. The
// few forms with a plain shell line (vim -c '!cmd') are parsed instead,
// and awk and sed programs are unknown only when they can run a command
// (system(), a pipe, sed's e).

// interp says how an interpreter takes code: the short options (alone
// or in a group) and long options holding code, the short options whose
// value is something else, the long ones written apart from theirs, the
// options that run a module or file instead (python -m) and those after
// which nothing runs.
type interp struct {
	code     string
	codeLong []string
	withArg  string
	longArg  []string
	other    string   // -m MODULE, -f FILE: not code on the line, nor the input
	noRun    []string // --version, --test...
}

// interpreter returns how the program name takes code; ok is false for
// other programs.
func interpreter(name string) (interp, bool) {
	base := strings.TrimRight(name, "0123456789.")
	switch base {
	case "python", "pypy":
		return interp{code: "c", withArg: "WX", other: "m", noRun: []string{"-V", "--version", "-h", "--help"}}, true
	case "perl":
		return interp{code: "eE", withArg: "I", noRun: []string{"-v", "-V", "--version", "-h", "--help"}}, true
	case "ruby", "jruby":
		return interp{code: "e", withArg: "IrCE", noRun: []string{"-v", "--version", "-h", "--help"}}, true
	case "node", "nodejs":
		return interp{code: "ep", codeLong: []string{"--eval", "--print"}, withArg: "r", longArg: []string{"--require", "--import", "--loader", "--experimental-loader", "--input-type", "--conditions"},
			noRun: []string{"-v", "--version", "-h", "--help", "--test", "--run", "-c", "--check"}}, true
	case "bun":
		return interp{code: "ep", codeLong: []string{"--eval", "--print"}, noRun: []string{"--version", "-v", "--help", "-h", "test", "install", "add", "remove", "build", "x", "run", "create", "init", "upgrade", "pm", "link"}}, true
	case "php":
		return interp{code: "rBRE", withArg: "cdzFt", other: "f", noRun: []string{"-v", "--version", "-h", "--help", "-m", "-i", "-l", "-S"}}, true
	case "lua", "luajit":
		return interp{code: "e", withArg: "l", noRun: []string{"-v"}}, true
	case "Rscript", "R":
		return interp{code: "e", codeLong: []string{"--expr"}, other: "f", noRun: []string{"--version", "--help"}}, true
	case "julia":
		return interp{code: "eE", codeLong: []string{"--eval", "--print"}, withArg: "LJCpt", noRun: []string{"-v", "--version", "-h", "--help"}}, true
	case "osascript":
		return interp{code: "e"}, true
	case "expect":
		return interp{code: "c", other: "f", noRun: []string{"-v"}}, true
	case "guile":
		return interp{code: "c", withArg: "lLxe", other: "s", noRun: []string{"-v", "--version", "-h", "--help"}}, true
	case "tclsh", "wish", "irb", "jshell", "pwsh", "powershell", "deno":
		return interp{code: "c", codeLong: []string{"-Command", "-c", "-EncodedCommand", "eval", "repl"}, noRun: []string{"--version", "-v", "-Version", "run", "test", "fmt", "lint", "check", "compile", "task", "install", "-File", "-f"}}, true
	}
	return interp{}, false
}

// code looks into a program that runs code of another language, and
// reports whether name was one.
func (w walker) code(name string, c Command) bool {
	args := c.Words[1:]
	switch {
	case name == "awk" || name == "gawk" || name == "mawk" || name == "nawk" || name == "busybox-awk":
		w.awk(name, args)
	case name == "sed" || name == "gsed":
		w.sed(name, args)
	case isVim(name):
		w.vim(name, args)
	case name == "emacs" || name == "emacsclient" || name == "xemacs":
		for _, a := range args {
			switch t, _, _ := strings.Cut(a.Text, "="); t {
			case "--eval", "-eval", "--execute", "-l", "--load", "-f", "--funcall", "--script", "-x", "-e", "-batch", "--batch":
				w.p.unknown("%s %s runs Lisp code, which can run any program", name, t)
				return true
			}
		}
	case name == "make" || name == "gmake":
		w.make(args)
	default:
		spec, ok := interpreter(name)
		if !ok {
			return false
		}
		w.interp(name, spec, args)
	}
	return true
}

func (w walker) interp(name string, spec interp, args []Word) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		t := a.Text
		opt, _, _ := strings.Cut(t, "=")
		switch {
		case a.Dynamic:
			w.p.unknown("what %s runs is decided at run time: %s", name, clip(t))
			return
		case slices.Contains(spec.noRun, t):
			return
		case slices.Contains(spec.codeLong, opt):
			w.p.unknown("%s %s runs code given on the line, which can run any program", name, opt)
			return
		case t == "-":
			w.p.unknown("%s reads the code it runs from its input", name)
			return
		case t == "--":
			if i+1 < len(args) {
				return // a script file
			}
		case strings.HasPrefix(t, "--"):
			if !strings.Contains(t, "=") && slices.Contains(spec.longArg, t) {
				i++
			}
		case len(t) > 1 && t[0] == '-':
			for j := 1; j < len(t); j++ {
				switch ch := t[j]; {
				case strings.IndexByte(spec.code, ch) >= 0:
					w.p.unknown("%s -%c runs code given on the line, which can run any program", name, ch)
					return
				case strings.IndexByte(spec.other, ch) >= 0:
					return // a module
				case strings.IndexByte(spec.withArg, ch) >= 0:
					if j == len(t)-1 {
						i++
					}
					j = len(t)
				}
			}
		default:
			return // a script file
		}
	}
	w.p.unknown("%s reads the code it runs from its input", name)
}

// awk runs commands through system(), pipes and getline from a command:
// a program holding none of them runs nothing.
func (w walker) awk(name string, args []Word) {
	var programs []Word
	file := false
	i := 0
	for ; i < len(args); i++ {
		t := args[i].Text
		switch {
		case args[i].Dynamic && !file && len(programs) == 0:
			w.p.unknown("%s runs a program decided at run time: %s", name, clip(t))
			return
		case t == "--":
			i++
		case t == "-f" || t == "--file" || t == "-E" || t == "--exec" || t == "-i" || t == "--include":
			file = true
			i++
			continue
		case t == "-e" || t == "--source":
			if i+1 < len(args) {
				i++
				programs = append(programs, args[i])
			}
			continue
		case t == "-l" || t == "--load":
			w.p.unknown("%s %s loads a library of compiled code", name, t)
			return
		case t == "-v" || t == "-F" || t == "--assign" || t == "--field-separator":
			i++
			continue
		case strings.HasPrefix(t, "-") && len(t) > 1:
			if strings.HasPrefix(t, "-f") {
				file = true
			}
			continue
		}
		break
	}
	if !file && len(programs) == 0 && i < len(args) {
		programs = append(programs, args[i])
	}
	for _, p := range programs {
		text := strings.ReplaceAll(p.Text, "||", "")
		if p.Dynamic || strings.Contains(text, "system") || strings.Contains(text, "|") {
			w.p.unknown("%s's program runs commands (system or a pipe): %s", name, clip(p.Text))
			return
		}
	}
}

// sed runs a shell line with its e command and the e flag of s.
func (w walker) sed(name string, args []Word) {
	var scripts []Word
	given := false
	i := 0
	for ; i < len(args); i++ {
		t := args[i].Text
		switch {
		case t == "-e" || t == "--expression":
			given = true
			if i+1 < len(args) {
				i++
				scripts = append(scripts, args[i])
			}
			continue
		case strings.HasPrefix(t, "--expression="):
			given = true
			scripts = append(scripts, Word{Text: t[len("--expression="):], Dynamic: args[i].Dynamic})
			continue
		case t == "-f" || t == "--file" || strings.HasPrefix(t, "--file="):
			given = true
			if t == "-f" || t == "--file" {
				i++
			}
			continue
		case t == "-l" || t == "--line-length":
			i++
			continue
		case strings.HasPrefix(t, "-") && len(t) > 1 && !args[i].Dynamic:
			j := strings.IndexAny(t, "ef")
			if j < 0 || strings.HasPrefix(t, "--") {
				continue
			}
			given = true
			rest := t[j+1:]
			if rest == "" && i+1 < len(args) {
				i++
				if t[j] == 'e' {
					scripts = append(scripts, args[i])
				}
			} else if t[j] == 'e' {
				scripts = append(scripts, Word{Text: rest})
			}
			continue
		}
		break
	}
	if !given && i < len(args) {
		scripts = append(scripts, args[i])
	}
	for _, s := range scripts {
		if s.Dynamic || sedExec(s.Text) {
			w.p.unknown("%s's script can run a shell line (the e command): %s", name, clip(s.Text))
			return
		}
	}
}

// sedExec reports whether a sed script holds the e command or an s
// command with the e flag. It reads commands split on ; and lines, which
// may also split inside a regular expression: then it errs towards yes.
func sedExec(script string) bool {
	for _, cmd := range strings.FieldsFunc(script, func(r rune) bool { return r == ';' || r == '\n' || r == '{' || r == '}' }) {
		cmd = strings.TrimLeft(skipSedAddress(cmd), " \t")
		switch {
		case cmd == "e" || strings.HasPrefix(cmd, "e ") || strings.HasPrefix(cmd, "e\t"):
			return true
		case len(cmd) > 1 && cmd[0] == 's':
			d := cmd[1]
			parts, n := 0, 2
			for ; n < len(cmd) && parts < 2; n++ {
				switch cmd[n] {
				case '\\':
					n++
				case d:
					parts++
				}
			}
			if parts < 2 {
				return strings.Contains(cmd, "e") // cut short by the split: judge the rest
			}
			if strings.ContainsRune(strings.Fields(cmd[n:] + " ")[0], 'e') {
				return true
			}
		}
	}
	return false
}

func isVim(name string) bool {
	switch name {
	case "vim", "vi", "nvim", "view", "vimdiff", "gvim", "gview", "evim", "ex", "rvim", "rview", "nvi":
		return true
	}
	return false
}

// vim runs editor commands given with -c, +, --cmd (a ":!" one runs a
// shell line, parsed here; others can run anything), from files given
// with -S, -s, -u, and from its input in Ex mode.
func (w walker) vim(name string, args []Word) {
	if name == "ex" && len(args) == 0 {
		w.p.unknown("ex reads editor commands from its input")
		return
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		t := a.Text
		var cmd Word
		switch {
		case a.Dynamic:
			continue
		case t == "-c" || t == "--cmd":
			if i+1 >= len(args) {
				return
			}
			i++
			cmd = args[i]
		case strings.HasPrefix(t, "+"):
			cmd = Word{Text: t[1:]}
			if rest := strings.TrimLeft(cmd.Text, "0123456789"); rest == "" || strings.HasPrefix(cmd.Text, "/") {
				continue // a line number or a pattern to go to
			}
		case t == "-S" || t == "-s" || t == "-u" || t == "-U" || strings.HasPrefix(t, "--remote"):
			w.p.unknown("%s %s runs editor commands from a file or another editor", name, t)
			continue
		case len(t) > 1 && t[0] == '-' && t[1] != '-' && strings.ContainsAny(t[1:], "eE"):
			w.p.unknown("%s %s reads editor commands from its input", name, t)
			continue
		default:
			continue
		}
		w.vimCommand(name, cmd)
	}
}

// vimSafe reports whether an editor command runs nothing: quitting,
// writing, undoing, and a substitution without an expression (\=).
func vimSafe(cmd string) bool {
	switch strings.TrimSuffix(cmd, "!") {
	case "q", "qa", "qall", "quit", "quitall", "wq", "wqa", "wqall", "x", "xa", "xall", "w", "wa", "wall",
		"update", "u", "undo", "redo", "noh", "nohlsearch":
		return true
	}
	sub := strings.TrimPrefix(cmd, "%")
	return len(sub) > 1 && sub[0] == 's' && !(sub[1] >= 'a' && sub[1] <= 'z' || sub[1] >= 'A' && sub[1] <= 'Z') && !strings.Contains(sub, `\=`) && !strings.ContainsAny(sub, "|\n")
}

func (w walker) vimCommand(name string, cmd Word) {
	text := strings.TrimLeft(cmd.Text, ": \t")
	switch {
	case cmd.Dynamic:
		w.p.unknown("%s runs an editor command decided at run time: %s", name, clip(cmd.Text))
	case strings.HasPrefix(text, "!"):
		w.p.parse(text[1:], name+" -c !", w.depth+1)
	case !vimSafe(text):
		w.p.unknown("%s -c %s runs an editor command, which can run any program", name, clip(text))
	}
}

// make runs makefile text given on the line (--eval) or read from its
// input; a makefile of the project is its own code.
func (w walker) make(args []Word) {
	for i := 0; i < len(args); i++ {
		t := args[i].Text
		name, val, eq := strings.Cut(t, "=")
		switch {
		case name == "--eval" || name == "-E" || strings.HasPrefix(t, "-E") && !strings.HasPrefix(t, "--"):
			w.p.unknown("make --eval runs makefile text given on the line, whose recipes are commands")
			return
		case name == "-f" || name == "--file" || name == "--makefile":
			if !eq && i+1 < len(args) {
				i++
				val = args[i].Text
				if args[i].Dynamic {
					w.p.unknown("make reads a makefile decided at run time: %s", clip(val))
					return
				}
			}
			if val == "-" || strings.HasPrefix(val, "/dev/") || strings.HasPrefix(val, "/proc/") {
				w.p.unknown("make reads a makefile from its input")
				return
			}
		}
	}
}

// skipSedAddress returns cmd after its address, if any: a line number,
// $, /regex/ or \cregexc, with I or M, a second address after a comma
// (also ~N and +N), and !.
func skipSedAddress(cmd string) string {
	one := func(s string, second bool) string {
		s = strings.TrimLeft(s, " \t")
		switch {
		case s == "":
			return s
		case s[0] == '$':
			s = s[1:]
		case s[0] >= '0' && s[0] <= '9', second && (s[0] == '~' || s[0] == '+'):
			s = strings.TrimLeft(s[1:], "0123456789")
		case s[0] == '/' || s[0] == '\\' && len(s) > 1:
			d := s[0]
			if d == '\\' {
				d, s = s[1], s[1:]
			}
			i := 1
			for ; i < len(s) && s[i] != d; i++ {
				if s[i] == '\\' {
					i++
				}
			}
			s = s[min(i+1, len(s)):]
		default:
			return s
		}
		return strings.TrimLeft(s, "IM")
	}
	rest := one(cmd, false)
	if r := strings.TrimLeft(rest, " \t"); len(rest) < len(cmd) && strings.HasPrefix(r, ",") {
		rest = one(r[1:], true)
	}
	return strings.TrimPrefix(strings.TrimLeft(rest, " \t"), "!")
}
