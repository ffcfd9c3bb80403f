package cmdline

import (
	"slices"
	"strings"
)

// Programs that run what their arguments hold, beyond the plain wrappers
// (wrapper): a shell line given to an option (script -c, flock -c,
// tar --checkpoint-action=exec=, rsync -e, ssh -o ProxyCommand=), a
// command after a subcommand (uv run, bundle exec), a command line a
// remote shell runs (ssh host CMD). Each such line is parsed in turn.

// runs looks into a program that runs a command, a shell line or code
// given in its arguments, and reports whether name was one.
func (w walker) runs(name string, c Command) bool {
	args := c.Words[1:]
	switch name {
	case "flock":
		w.flock(c)
	case "script":
		w.commandOption("script -c", args, "c", "--command")
	case "su":
		w.commandOption("su -c", args, "c", "--command", "--session-command")
	case "runuser":
		w.commandOption("runuser -c", args, "c", "--command", "--session-command")
		if hasShort(args, 'u') {
			w.unwrap(name, optSpec{withArg: "ugGw", longArg: []string{"--user", "--group", "--supp-group", "--whitelist-environment", "--shell"}}, c)
		}
	case "sg":
		w.sg(args)
	case "tar", "gtar", "bsdtar":
		w.tar(args)
	case "rsync":
		w.commandOption("rsync -e", args, "e", "--rsh", "--rsync-path")
	case "ssh", "scp", "sftp":
		w.ssh(name, args)
	case "nix-shell":
		w.commandOption("nix-shell --run", args, "", "--run", "--command")
	case "hyperfine":
		w.hyperfine(args)
	case "entr":
		w.entr(c)
	case "parallel", "sem":
		if len(args) > 0 {
			w.p.unknown("%s runs command lines it builds from its input and arguments", name)
		}
	case "uv", "poetry", "pipenv", "pdm", "hatch", "rye", "bundle", "npm", "pnpm", "yarn", "direnv", "nix", "mise", "asdf":
		w.subcommandRuns(name, c)
	default:
		return w.code(name, c)
	}
	return true
}

// commandOption parses the values of the options that hold a shell line:
// a short letter in a group or alone (-c CMD, -qc CMD, -cCMD), and long
// options (--command CMD, --command=CMD).
func (w walker) commandOption(via string, args []Word, short string, long ...string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		t := a.Text
		if t == "--" {
			return
		}
		var val Word
		switch {
		case a.Dynamic:
			continue
		case strings.HasPrefix(t, "--"):
			name, v, eq := strings.Cut(t, "=")
			if !slices.Contains(long, name) {
				continue
			}
			if val = (Word{Text: v}); !eq {
				if i+1 >= len(args) {
					return
				}
				i++
				val = args[i]
			}
		case len(t) > 1 && t[0] == '-' && short != "":
			j := strings.IndexAny(t[1:], short)
			if j < 0 {
				continue
			}
			if val = (Word{Text: t[j+2:]}); val.Text == "" {
				if i+1 >= len(args) {
					return
				}
				i++
				val = args[i]
			}
		default:
			continue
		}
		w.valueRuns(via, val)
	}
}

// flock FILE runs the command after the lock file, or the shell line
// after -c.
func (w walker) flock(c Command) {
	spec := optSpec{withArg: "wE", longArg: []string{"--wait", "--timeout", "--conflict-exit-code"}, operands: 1}
	args := c.Words[1:]
	for i := 0; i < len(args); i++ {
		if args[i].Text == "-c" || args[i].Text == "--command" {
			if i+1 < len(args) {
				w.valueRuns("flock -c", args[i+1])
			}
			return
		}
	}
	w.unwrap("flock", spec, c)
}

// sg GROUP CMD runs CMD, a shell line.
func (w walker) sg(args []Word) {
	i := 0
	for i < len(args) && (args[i].Text == "-" || args[i].Text == "-c") {
		i++
	}
	i++ // the group
	for i < len(args) && args[i].Text == "-c" {
		i++
	}
	if i < len(args) {
		w.runText("sg", args[i:])
	}
}

// tar runs programs named by options: a checkpoint action, a compressor,
// a program fed each file, a remote shell; a volume script is a file.
func (w walker) tar(args []Word) {
	for i := 0; i < len(args); i++ {
		t := args[i].Text
		if args[i].Dynamic {
			continue
		}
		name, val, eq := strings.Cut(t, "=")
		switch name {
		case "--checkpoint-action", "--to-command", "--use-compress-program", "--rsh-command", "--info-script", "--new-volume-script":
		default:
			continue
		}
		v := Word{Text: val}
		if !eq {
			if i+1 >= len(args) {
				return
			}
			i++
			v = args[i]
		}
		switch {
		case name == "--info-script" || name == "--new-volume-script":
			w.p.unknown("tar %s runs a script file", name)
		case name == "--checkpoint-action":
			if cmd, ok := strings.CutPrefix(v.Text, "exec="); ok {
				w.valueRuns("tar --checkpoint-action=exec", Word{Text: cmd, Dynamic: v.Dynamic})
			} else if v.Dynamic {
				w.p.unknown("tar --checkpoint-action is decided at run time")
			}
		default:
			w.valueRuns("tar "+name, v)
		}
	}
	w.commandOption("tar -I", args, "I")
	if hasShort(args, 'F') {
		w.p.unknown("tar -F runs a script file")
	}
}

// ssh runs a remote shell line (the words after the host) and, on this
// machine, the commands of some options; a config file can hold more.
func (w walker) ssh(name string, args []Word) {
	withArg := "BbcDEeFIiJLlmOoPpQRSWw"
	host := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		t := a.Text
		switch {
		case a.Dynamic && !host:
			w.p.unknown("what %s runs is decided at run time: %s", name, clip(t))
			return
		case host:
			if name == "ssh" {
				w.runText("ssh", args[i:])
			}
			return
		case t == "--":
			host = true
			continue
		case len(t) > 1 && t[0] == '-':
			for j := 1; j < len(t); j++ {
				if strings.IndexByte(withArg, t[j]) < 0 {
					continue
				}
				val := t[j+1:]
				if val == "" && i+1 < len(args) {
					i++
					val = args[i].Text
				}
				switch t[j] {
				case 'o':
					w.sshOption(val)
				case 'F':
					w.p.unknown("%s -F reads a config file, which can run commands", name)
				case 'S':
					if name != "ssh" {
						w.valueRuns(name+" -S", Word{Text: val})
					}
				}
				break
			}
			continue
		}
		host = true // the destination; what follows is the remote line
	}
}

// sshOption looks into an -o option that runs a command here.
func (w walker) sshOption(opt string) {
	key, val, ok := strings.Cut(opt, "=")
	if !ok {
		key, val, _ = strings.Cut(strings.TrimSpace(opt), " ")
	}
	switch strings.ToLower(strings.TrimSpace(key)) {
	case "proxycommand", "localcommand", "knownhostscommand", "remotecommand":
		w.valueRuns("ssh -o "+key, Word{Text: strings.TrimSpace(val)})
	case "include", "match":
		w.p.unknown("ssh -o %s can run commands", key)
	}
}

// hyperfine runs each operand as a shell line, and its prepare and
// cleanup lines.
func (w walker) hyperfine(args []Word) {
	argCount := map[string]int{"-w": 1, "--warmup": 1, "-m": 1, "--min-runs": 1, "-M": 1, "--max-runs": 1,
		"-r": 1, "--runs": 1, "-s": 1, "--style": 1, "--sort": 1, "-u": 1, "--time-unit": 1, "-n": 1,
		"--command-name": 1, "--output": 1, "--input": 1, "-D": 1, "--parameter-step-size": 1,
		"-P": 3, "--parameter-scan": 3, "-L": 2, "--parameter-list": 2, "--export-asciidoc": 1,
		"--export-csv": 1, "--export-json": 1, "--export-markdown": 1, "--export-orgmode": 1}
	for i := 0; i < len(args); i++ {
		t := args[i].Text
		name, _, eq := strings.Cut(t, "=")
		switch {
		case name == "-p" || name == "--prepare" || name == "-c" || name == "--cleanup" || name == "--conclude":
			if !eq && i+1 < len(args) {
				i++
				w.valueRuns("hyperfine "+name, args[i])
			} else {
				w.valueRuns("hyperfine "+name, Word{Text: t[len(name)+1:]})
			}
		case name == "-S" || name == "--shell":
			w.p.unknown("hyperfine --shell runs its commands with a program the line chooses")
			return
		case strings.HasPrefix(t, "-"):
			if !eq {
				i += argCount[name]
			}
		default:
			w.valueRuns("hyperfine", args[i])
		}
	}
}

// entr runs its operands when files change: a shell line with -s.
func (w walker) entr(c Command) {
	args := c.Words[1:]
	shell := false
	i := 0
	for ; i < len(args) && strings.HasPrefix(args[i].Text, "-") && !args[i].Dynamic; i++ {
		shell = shell || strings.ContainsRune(args[i].Text, 's')
	}
	if i >= len(args) {
		return
	}
	if shell {
		w.runText("entr -s", args[i:])
		return
	}
	w.command(Command{Words: args[i:], Via: "entr", Redirects: c.Redirects})
}

// subcommandRuns looks into the subcommands of tools that run the
// command given after them (uv run pytest, bundle exec rake, npm exec --
// x, direnv exec DIR cmd, nix develop -c cmd).
func (w walker) subcommandRuns(name string, c Command) {
	args := c.Words[1:]
	if len(args) == 0 || args[0].Dynamic {
		return
	}
	sub := args[0].Text
	skip := 0 // operands of the subcommand before the command
	switch {
	case sub == "run" && (name == "uv" || name == "poetry" || name == "pipenv" || name == "pdm" || name == "hatch" || name == "rye"):
	case sub == "exec" && (name == "bundle" || name == "npm" || name == "pnpm" || name == "yarn" || name == "mise"):
	case sub == "dlx" && name == "pnpm", sub == "x" && name == "mise":
	case sub == "exec" && name == "direnv", sub == "exec" && name == "asdf":
		skip = 1
	case name == "nix" && (sub == "develop" || sub == "shell"):
		// nix develop -c CMD ARGS...: the rest of the line is the command.
		for i, a := range args {
			if a.Text == "-c" || a.Text == "--command" {
				if i+1 < len(args) {
					w.command(Command{Words: args[i+1:], Via: "nix " + sub, Assigns: c.Assigns, Redirects: c.Redirects})
				}
				return
			}
		}
		return
	default:
		return
	}
	rest := args[1:]
	i := 0
	for i < len(rest) && !rest[i].Dynamic && strings.HasPrefix(rest[i].Text, "-") {
		if rest[i].Text == "--" {
			i++
			break
		}
		i++
	}
	i += skip
	if i < len(rest) {
		w.command(Command{Words: rest[i:], Via: name + " " + sub, Assigns: c.Assigns, Redirects: c.Redirects, parent: w.cur, at: i + 2})
	}
}
