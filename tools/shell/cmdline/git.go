package cmdline

import (
	"slices"
	"strings"
)

// Git decides what to run from more than its words: its settings (given
// with -c, in the environment, or in config files, which an alias can
// turn into any subcommand or a shell line), the git-NAME programs it
// runs for a subcommand, and options of some subcommands that hold
// command lines (rebase -x, submodule foreach, --upload-pack). Every
// git command of a line is looked at here, and what it really runs is
// added to the line: an alias given on the line is expanded into the
// git command it stands for, and a subcommand that is not git's own (an
// alias from a config file, or a program) is unknown.

// gitGlobalArg reports whether opt is one of git's own options (before
// the subcommand) that take the next word as their argument.
func gitGlobalArg(opt string) bool {
	switch opt {
	case "-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--attr-source", "--super-prefix", "--exec-path":
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

// maxAliasDepth bounds an alias chain (git stops a loop itself).
const maxAliasDepth = 10

// git looks into one git command: its settings, its subcommand (aliases
// expanded) and the command lines its options hold.
func (w walker) git(c Command) {
	aliases := map[string]string{}
	settings := w.gitEnvSettings()
	args := c.Words[1:]
	for i := 0; i < len(args); i++ {
		t := args[i].Text
		switch {
		case args[i].Dynamic:
		case t == "-c" && i+1 < len(args):
			i++
			settings = append(settings, args[i])
		case t == "--exec-path" || strings.HasPrefix(t, "--exec-path="):
			w.p.unknown("git --exec-path changes where git finds the programs of its subcommands")
		case strings.HasPrefix(t, "--config-env"):
			w.p.unknown("git --config-env takes a setting from the environment")
		case gitGlobalArg(t):
			i++
			continue
		case !strings.HasPrefix(t, "-"):
			i = len(args)
			continue
		}
	}
	for _, s := range settings {
		w.gitSetting(s)
		key, val, _ := strings.Cut(s.Text, "=")
		if name, ok := strings.CutPrefix(strings.ToLower(key), "alias."); ok && !s.Dynamic {
			aliases[name] = val
		}
	}
	words := c.Words
	for depth := 0; ; depth++ {
		i, unsure := gitSubcommand(words)
		if unsure || i >= len(words) {
			break // judged by the rules (Unsure), or git alone
		}
		sub := words[i].Text
		if gitCommand(sub) {
			if depth > 0 {
				w.p.add(Command{Words: words, Via: "git alias", Assigns: c.Assigns, Redirects: c.Redirects})
			}
			w.gitOptions(sub, words[i+1:])
			return
		}
		val, ok := aliases[strings.ToLower(sub)]
		switch {
		case !ok:
			w.p.unknown("git %s is not one of git's commands: an alias from a config file or a git-%s program, which can run anything", clip(sub), clip(sub))
			return
		case strings.HasPrefix(val, "!"):
			return // a shell line: parsed with the setting
		case depth == maxAliasDepth:
			w.p.unknown("git's aliases nest too deeply to check: %s", clip(sub))
			return
		}
		expanded, ok := shellWords(val)
		if !ok || len(expanded) == 0 {
			w.p.unknown("git alias %s runs words decided at run time: %s", clip(sub), clip(val))
			return
		}
		words = slices.Concat([]Word{{Text: "git"}}, expanded, words[i+1:])
	}
}

// gitProgram is a git-NAME program (/usr/lib/git-core/git-push): git runs
// it for `git NAME`, and it is judged as that.
func (w walker) gitProgram(name string, c Command) bool {
	sub, ok := strings.CutPrefix(name, "git-")
	if !ok || !gitCommand(sub) {
		return false
	}
	g := Command{Words: slices.Concat([]Word{{Text: "git"}, {Text: sub}}, c.Words[1:]), Via: name, Assigns: c.Assigns, Redirects: c.Redirects}
	w.p.add(g)
	w.git(g)
	return true
}

// gitEnvSettings are the settings the line gives git through the
// environment (GIT_CONFIG_KEY_n with GIT_CONFIG_VALUE_n, and
// GIT_CONFIG_PARAMETERS), as -c words.
func (w walker) gitEnvSettings() []Word {
	var out []Word
	for name, key := range w.p.gitEnv {
		n, ok := strings.CutPrefix(name, "GIT_CONFIG_KEY_")
		if !ok {
			continue
		}
		val := w.p.gitEnv["GIT_CONFIG_VALUE_"+n]
		out = append(out, Word{Text: key.Text + "=" + val.Text, Dynamic: key.Dynamic || val.Dynamic})
	}
	if params, ok := w.p.gitEnv["GIT_CONFIG_PARAMETERS"]; ok {
		words, ok := shellWords(params.Text)
		if params.Dynamic || !ok {
			w.p.unknown("GIT_CONFIG_PARAMETERS gives git settings decided at run time")
		}
		out = append(out, words...)
	}
	slices.SortFunc(out, func(a, b Word) int { return strings.Compare(a.Text, b.Text) })
	return out
}

// gitSetting checks one setting given to git: a value git runs is parsed
// as a command line; a file git reads code from cannot be known.
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

// gitEnvVar notes a variable that gives git settings: the pairs and
// GIT_CONFIG_PARAMETERS are read like -c; one that makes git read its
// config or programs from elsewhere makes a line that runs git unknown.
func (w walker) gitEnvVar(name string, value Word) bool {
	switch {
	case strings.HasPrefix(name, "GIT_CONFIG_KEY_") || strings.HasPrefix(name, "GIT_CONFIG_VALUE_") || name == "GIT_CONFIG_PARAMETERS":
		if w.p.gitEnv == nil {
			w.p.gitEnv = map[string]Word{}
		}
		w.p.gitEnv[name] = value
	case name == "GIT_CONFIG_GLOBAL" || name == "GIT_CONFIG_SYSTEM" || name == "GIT_CONFIG" || name == "GIT_EXEC_PATH" ||
		name == "HOME" || name == "XDG_CONFIG_HOME" || name == "GIT_TEMPLATE_DIR":
		if w.p.gitConfigFrom == "" {
			w.p.gitConfigFrom = name + " makes git read its config or programs from a place the line chooses"
		}
	default:
		return false
	}
	return true
}

// noteConfigWrite notes a word or redirection target naming a git
// config file (…/config, .gitconfig, gitconfig.local, config.worktree):
// a write to one before git runs can change what git runs.
func (w walker) noteConfigWrite(target string) {
	base := target[strings.LastIndexByte(target, '/')+1:]
	if base == "config" || base == "config.worktree" || strings.HasPrefix(strings.TrimPrefix(base, "."), "gitconfig") {
		w.p.gitConfigWrite = true
	}
}

// gitConfigReads reports whether git config's arguments only read.
func gitConfigReads(args []Word) bool {
	for _, a := range args {
		switch a.Text {
		case "--get", "--get-all", "--get-regexp", "--get-urlmatch", "--get-color", "--get-colorbool", "-l", "--list",
			"get", "list", "--show-origin", "--show-scope", "--name-only":
			return true
		}
	}
	operands := 0
	for _, a := range args {
		if !strings.HasPrefix(a.Text, "-") {
			operands++
		}
	}
	return operands == 1 // git config NAME prints it
}

// gitOptions looks into the options of a subcommand that hold command
// lines git runs (through the shell), and notes a config write.
func (w walker) gitOptions(sub string, args []Word) {
	w.p.gitRuns++
	if sub == "config" && !gitConfigReads(args) {
		w.p.gitConfigWrite = true
		w.p.gitRuns--
	}
	switch sub {
	case "bisect":
		if len(args) > 1 && args[0].Text == "run" {
			w.command(Command{Words: args[1:], Via: "git bisect run"})
		}
		return
	case "submodule":
		for i, a := range args {
			if a.Text == "foreach" {
				j := i + 1
				for j < len(args) && strings.HasPrefix(args[j].Text, "-") {
					j++
				}
				w.runText("git submodule foreach", args[j:])
				return
			}
		}
		return
	case "clone":
		if hasShort(args, 'u') {
			w.shortValue("git clone -u", args, 'u')
		}
	case "rebase":
		w.shortValue("git rebase -x", args, 'x')
	case "difftool":
		w.shortValue("git difftool -x", args, 'x')
	case "grep":
		w.shortValue("git grep -O", args, 'O')
	}
	for i := 0; i < len(args); i++ {
		name, val, eq := strings.Cut(args[i].Text, "=")
		if !strings.HasPrefix(name, "--") || !gitCommandOption(sub, name) {
			continue
		}
		if !eq && i+1 < len(args) {
			i++
			val = args[i].Text
			if args[i].Dynamic {
				w.p.unknown("git %s %s runs a command decided at run time: %s", sub, name, clip(val))
				continue
			}
		}
		if args[i].Dynamic {
			w.p.unknown("git %s %s runs a command decided at run time", sub, name)
			continue
		}
		if name == "--template" {
			w.p.unknown("git %s --template runs the hooks of a folder", sub)
			continue
		}
		w.p.parse(val, "git "+sub+" "+name, w.depth+1)
	}
}

// gitCommandOption reports whether a long option of a git subcommand is
// a command line git runs (or, for --template, a folder of hooks).
func gitCommandOption(sub, opt string) bool {
	switch opt {
	case "--upload-pack", "--receive-pack", "--exec":
		return sub == "clone" || sub == "fetch" || sub == "pull" || sub == "ls-remote" || sub == "archive" || sub == "push" || sub == "rebase" || sub == "submodule"
	case "--extcmd":
		return sub == "difftool"
	case "--open-files-in-pager":
		return sub == "grep"
	case "--to-cmd", "--cc-cmd", "--header-cmd", "--sendmail-cmd", "--smtp-server":
		return sub == "send-email"
	case "--tree-filter", "--index-filter", "--env-filter", "--parent-filter", "--msg-filter", "--commit-filter", "--tag-name-filter", "--setup":
		return sub == "filter-branch"
	case "--template":
		return sub == "clone"
	}
	return false
}

// shortValue parses the value of a short option that holds a command
// line (-x CMD, -xCMD), as git's option parser reads it.
func (w walker) shortValue(via string, args []Word, letter byte) {
	for i := 0; i < len(args); i++ {
		t := args[i].Text
		if args[i].Dynamic || len(t) < 2 || t[0] != '-' || t[1] == '-' {
			if t == "--" {
				return
			}
			continue
		}
		j := strings.IndexByte(t, letter)
		if j < 1 {
			continue
		}
		val := t[j+1:]
		if val == "" {
			if i+1 >= len(args) {
				return
			}
			i++
			if args[i].Dynamic {
				w.p.unknown("%s runs a command decided at run time: %s", via, clip(args[i].Text))
				continue
			}
			val = args[i].Text
		}
		w.p.parse(val, via, w.depth+1)
	}
}

// sameGitCommand reports whether git's subcommand sub does what the
// rule's subcommand names: send-pack and http-push push as push does.
func sameGitCommand(rule, sub string) bool {
	if rule == sub {
		return true
	}
	return rule == "push" && (sub == "send-pack" || sub == "http-push")
}

// gitCommand reports whether name is one of git's own commands, which
// an alias cannot replace (git list-cmds=main,others,nohelpers, the
// helpers it runs itself, and the usual separately installed ones).
func gitCommand(name string) bool {
	switch name {
	case "add", "am", "annotate", "apply", "archimport", "archive", "backfill", "bisect", "blame", "branch", "bugreport",
		"bundle", "cat-file", "check-attr", "check-ignore", "check-mailmap", "check-ref-format", "checkout",
		"checkout-index", "checkout--worker", "cherry", "cherry-pick", "citool", "clean", "clone", "column", "commit",
		"commit-graph", "commit-tree", "config", "count-objects", "credential", "credential-cache",
		"credential-cache--daemon", "credential-store", "cvsexportcommit", "cvsimport", "cvsserver", "daemon",
		"describe", "diagnose", "diff", "diff-files", "diff-index", "diff-pairs", "diff-tree", "difftool",
		"difftool--helper", "fast-export", "fast-import", "fetch", "fetch-pack", "filter-branch", "fmt-merge-msg",
		"for-each-ref", "for-each-repo", "format-patch", "fsck", "fsck-objects", "fsmonitor--daemon", "gc",
		"get-tar-commit-id", "grep", "gui", "hash-object", "help", "hook", "http-backend", "http-fetch", "http-push",
		"imap-send", "index-pack", "init", "init-db", "instaweb", "interpret-trailers", "last-modified", "log",
		"ls-files", "ls-remote", "ls-tree", "mailinfo", "mailsplit", "maintenance", "merge", "merge-base",
		"merge-file", "merge-index", "merge-octopus", "merge-one-file", "merge-ours", "merge-recursive",
		"merge-recursive-ours", "merge-recursive-theirs", "merge-resolve", "merge-subtree", "merge-tree",
		"mergetool", "mktag", "mktree", "multi-pack-index", "mv", "name-rev", "notes", "p4", "pack-objects",
		"pack-redundant", "pack-refs", "patch-id", "prune", "prune-packed", "pull", "push", "quiltimport",
		"range-diff", "read-tree", "rebase", "receive-pack", "reflog", "refs", "remote", "repack", "replace",
		"replay", "repo", "request-pull", "rerere", "reset", "restore", "rev-list", "rev-parse", "revert", "rm",
		"send-email", "send-pack", "sh-i18n", "sh-i18n--envsubst", "sh-setup", "shell", "shortlog", "show",
		"show-branch", "show-index", "show-ref", "sparse-checkout", "stage", "stash", "status", "stripspace",
		"submodule", "submodule--helper", "svn", "switch", "symbolic-ref", "tag", "unpack-file", "unpack-objects",
		"update-index", "update-ref", "update-server-info", "upload-archive", "upload-archive--writer",
		"upload-pack", "var", "verify-commit", "verify-pack", "verify-tag", "version", "web--browse",
		"whatchanged", "worktree", "write-tree", "gitk":
		return true
	}
	return false
}
