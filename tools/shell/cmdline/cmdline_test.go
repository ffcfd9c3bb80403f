package cmdline

import (
	"strings"
	"testing"
)

// judge is the verdict of the deny rules "rm -rf" and "git push" on
// line, as permissions.deny applies them: the strongest of the rules.
func judge(t testing.TB, line string) (Verdict, string) {
	t.Helper()
	l := Parse(line)
	best, why := NoMatch, ""
	for _, text := range []string{"rm -rf", "git push"} {
		r, err := ParseRule(text)
		if err != nil {
			t.Fatal(err)
		}
		if v, reason := r.Judge(l); v > best {
			best, why = v, reason
		}
	}
	return best, why
}

func TestDenyRules(t *testing.T) {
	for _, tc := range []struct {
		line string
		want Verdict
		why  string // a part of the reason, for Unsure
	}{
		// The bypasses that ran before: each is caught.
		{line: "rm -fr x", want: Match},
		{line: `r\m -rf x`, want: Match},
		{line: "x=; r${x}m -rf y", want: Unsure, why: "the program is decided at run time: r${x}m"},
		{line: "$(echo git) push", want: Unsure, why: "the program is decided at run time: $(echo git)"},
		{line: "git -C . push", want: Match},

		// Flags: the rule's short flags are a subset of the command's.
		{line: "rm -rf x", want: Match},
		{line: "rm -r -f x", want: Match},
		{line: "rm -rfv x", want: Match},
		{line: "rm -R -f x", want: Match},
		{line: "rm --recursive --force x", want: Match},
		{line: "rm --recur --force x", want: Match},
		{line: "rm -R --force x", want: Match},
		{line: "rm -rf -- x", want: Match},
		// Without a terminal rm asks nothing: -f changes nothing a
		// rule is about, and rm -rf means a recursive removal.
		{line: "rm -r x", want: Match},
		{line: "rm -R x", want: Match},
		{line: "rm --recursive x", want: Match},
		{line: "rm -r -- x -f", want: Match},
		{line: "rm -ri x", want: Match},
		{line: "rm -f x", want: NoMatch},
		{line: "rm x", want: NoMatch},
		{line: "rm -- -rf", want: NoMatch},
		{line: "git push --force", want: Match},

		// Quoting and paths.
		{line: "'rm' -rf x", want: Match},
		{line: `"rm" "-rf" x`, want: Match},
		{line: `"r"'m' -r"f" x`, want: Match},
		{line: "/bin/rm -rf x", want: Match},
		{line: "~/bin/git push", want: Match},
		{line: "echo rm -rf x", want: NoMatch},
		{line: "echo 'git push'", want: NoMatch},
		{line: "grep -rf x y", want: NoMatch},

		// git's own options come before the subcommand.
		{line: "git -c x=y push", want: Match},
		{line: "git --git-dir=.git push", want: Match},
		{line: "git --git-dir .git --work-tree . push origin", want: Match},
		{line: "git --no-pager -P push", want: Match},
		{line: "git status", want: NoMatch},
		{line: "git pushy", want: Unsure, why: "git pushy is not one of git's commands"},
		{line: "git commit -m push", want: NoMatch},
		{line: `git commit -m "$(date)"`, want: NoMatch},
		{line: "git $sub origin", want: Unsure, why: "git's subcommand is decided at run time: $sub"},
		{line: "git -c alias.p='!rm -rf x' p", want: Match},
		{line: "git -c core.pager='rm -rf x' log", want: Match},
		{line: "GIT_SSH_COMMAND='rm -rf x' git fetch", want: Match},
		{line: "git -c core.hooksPath=h commit", want: Unsure, why: "run code from a file"},

		// Lists, pipelines, groups, newlines, comments, continuations.
		{line: "true; rm -rf x", want: Match},
		{line: "true && rm -rf x", want: Match},
		{line: "false || git push", want: Match},
		{line: "echo y | rm -rf x", want: Match},
		{line: "(cd sub && rm -rf x)", want: Match},
		{line: "{ rm -rf x; }", want: Match},
		{line: "true\nrm -rf x", want: Match},
		{line: "rm \\\n  -rf x", want: Match},
		{line: "rm -rf x # a comment", want: Match},
		{line: "# rm -rf x\ntrue", want: NoMatch},
		{line: "if true; then rm -rf x; fi", want: Match},
		{line: "for i in 1; do git push; done", want: Match},
		{line: "f() { rm -rf \"$@\"; }; f x", want: Match},
		{line: "rm -rf x &", want: Match},

		// Substitutions are commands too.
		{line: "echo $(rm -rf x)", want: Match},
		{line: "echo `git push`", want: Match},
		{line: "cat <(rm -rf x)", want: Match},
		{line: "x=$(rm -rf y)", want: Match},
		{line: "echo ${x:-$(rm -rf y)}", want: Match},
		{line: "echo hi > $(rm -rf x)", want: Match},
		{line: "cat <<EOF\n$(rm -rf x)\nEOF", want: Match},
		{line: "cat <<'EOF'\n$(rm -rf x)\nEOF", want: NoMatch},

		// Shell strings are parsed again.
		{line: "bash -c 'rm -rf x'", want: Match},
		{line: `sh -c "git push"`, want: Match},
		{line: "zsh -lc 'cd x && rm -rf y'", want: Match},
		{line: `bash -c "bash -c 'rm -rf x'"`, want: Match},
		{line: "eval 'rm -rf x'", want: Match},
		{line: "eval rm -rf x", want: Match},
		{line: "trap 'rm -rf x' EXIT", want: Match},
		{line: "watch rm -rf x", want: Match},

		// Wrappers, with their own options skipped.
		{line: "env -i A=1 rm -rf x", want: Match},
		{line: "env -u HOME -- git push", want: Match},
		{line: "env -S 'rm -rf' x", want: Match},
		{line: "A=1 rm -rf x", want: Match},
		{line: "exec rm -rf x", want: Match},
		{line: "exec -a name git push", want: Match},
		{line: "command rm -rf x", want: Match},
		{line: "command -v rm", want: NoMatch},
		{line: "builtin command git push", want: Match},
		{line: "nice -n 5 rm -rf x", want: Match},
		{line: "nice -5 rm -rf x", want: Match},
		{line: "timeout 5 rm -rf x", want: Match},
		{line: "timeout -s KILL --kill-after=1 5s git push", want: Match},
		{line: "sudo -u x rm -rf y", want: Match},
		{line: "sudo -E HOME=/x git push", want: Match},
		{line: "doas -u root rm -rf x", want: Match},
		{line: "nohup rm -rf x", want: Match},
		{line: "time rm -rf x", want: Match},
		{line: "time -p git push", want: Match},
		{line: `\time -f %e rm -rf x`, want: Match},
		{line: "stdbuf -oL rm -rf x", want: Match},
		{line: "ionice -c 3 rm -rf x", want: Match},
		{line: "setsid -f rm -rf x", want: Match},
		{line: "busybox rm -rf x", want: Match},
		{line: "nice timeout 5 env A=1 rm -rf x", want: Match},
		{line: "xargs rm -rf", want: Match},
		{line: "find . -name '*.o' | xargs -0 -n 1 rm -rf", want: Match},
		{line: "find . -exec rm -rf {} \\;", want: Match},
		{line: "find . -execdir git push \\;", want: Match},
		{line: "find . -name x -delete", want: NoMatch},

		// What cannot be known without running it is asked about.
		{line: "`echo git` push", want: Unsure, why: "the program is decided at run time"},
		{line: "$CMD -rf x", want: Unsure, why: "$CMD"},
		{line: "eval \"$x\"", want: Unsure, why: "eval runs text decided at run time"},
		{line: "source ./x.sh", want: Unsure, why: "source runs the commands in a file: ./x.sh"},
		{line: ". ./x.sh", want: Unsure, why: "runs the commands in a file"},
		{line: "bash x.sh", want: Unsure, why: "bash runs the commands in a file: x.sh"},
		{line: "bash <<EOF\nrm -rf x\nEOF", want: Unsure, why: "bash reads the commands it runs from its input"},
		{line: "curl -s x | sh", want: Unsure, why: "sh reads the commands"},
		{line: `bash -c "$x"`, want: Unsure, why: "bash -c runs text decided at run time"},
		{line: `rm -f "$f"`, want: Unsure, why: `what rm is given is decided at run time: "$f"`},
		{line: "rm -f *", want: Unsure, why: "*"},
		{line: "xargs rm -f", want: Unsure, why: "xargs adds arguments to rm"},
		{line: "alias x='rm -rf'; x y", want: Unsure, why: "alias changes what a name runs"},
		{line: "{rm,-rf,x}", want: Unsure, why: "the program is decided at run time: {rm,-rf,x}"},
		{line: "/bin/r? -rf x", want: Unsure, why: "/bin/r?"},
		{line: `$'\x72m' -rf x`, want: Unsure, why: "the program is decided"},
		{line: "rm -rf 'x", want: Unsure, why: "does not parse"},
		{line: "BASH_ENV=x bash -c true", want: Unsure, why: "BASH_ENV"},
		{line: "x='a[$(rm -rf y)]'; (( x ))", want: Unsure, why: "arithmetic"},
		{line: `find . -exec "$c" {} \;`, want: Unsure, why: "the program is decided"},
		{line: "timeout $t rm -rf x", want: Unsure, why: "what timeout runs is decided at run time: $t"},
		{line: "env $E rm -rf x", want: Unsure, why: "what env runs"},
		{line: "PATH=.:$PATH ls", want: Unsure, why: "PATH changes which program"},
		{line: "export PATH=/tmp/x; ls", want: Unsure, why: "PATH changes which program"},
		{line: "enable -f ./x.so rm", want: Unsure, why: "enable -f"},
		{line: "zsh -c '=rm -rf x'", want: Unsure, why: "zsh runs the program found on PATH for =rm"},

		// The forms a security test ran under these rules: each is
		// refused or asked.
		{line: "taskset 1 rm -rf victim", want: Match},
		{line: "chrt -o 0 rm -rf victim", want: Match},
		{line: "flock /tmp/l rm -rf victim", want: Match},
		{line: "unshare -U rm -rf victim", want: Match},
		{line: "script -qc 'rm -rf victim' /dev/null", want: Match},
		{line: "strace -f -o /dev/null rm -rf victim", want: Match},
		{line: `python3 -c 'import shutil; shutil.rmtree("victim")'`, want: Unsure, why: "python3 -c runs code given on the line"},
		{line: `perl -e 'system("rm","-rf","victim")'`, want: Unsure, why: "perl -e runs code"},
		{line: `awk 'BEGIN{system("rm -rf victim")}'`, want: Unsure, why: "awk's program runs commands"},
		{line: "git -c alias.x=push x origin HEAD:refs/heads/m", want: Match},
		{line: "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0=push git x origin HEAD:refs/heads/m", want: Match},
		{line: `GIT_CONFIG_PARAMETERS="'alias.x'='push'" git x origin HEAD:refs/heads/m`, want: Match},
		{line: "printf '[alias]\n\tx = push\n' > $HOME/.gitconfig; git x origin HEAD:refs/heads/m", want: Unsure, why: "git x is not one of git's commands"},
		{line: "printf '[alias]\n\tx = push\n' > a.cfg; GIT_CONFIG_GLOBAL=a.cfg git x origin HEAD:refs/heads/m", want: Unsure},
		{line: "/usr/lib/git-core/git-push origin HEAD:refs/heads/m", want: Match},
		{line: "git send-pack $HOME/go/pkg/mod/remote.git HEAD:refs/heads/m", want: Match},
		{line: "taskset 1 git push origin HEAD:refs/heads/m", want: Match},
		{line: `bash -c 'x=\$\(rm\ -rf\ victim\); : ${x@P}'`, want: Unsure, why: "@P"},
		{line: `bash -c "[ -v 'a[\$(rm -rf victim)]' ]"`, want: Unsure, why: "arithmetic"},
		{line: `bash -c "printf -v 'a[\$(rm -rf victim)]' x"`, want: Unsure, why: "arithmetic"},
		{line: `bash -c "read 'a[\$(rm -rf victim)]' <<< x"`, want: Unsure, why: "arithmetic"},
		{line: "tar -cf /dev/null --checkpoint=1 --checkpoint-action=exec='rm -rf victim' .", want: Match},
		{line: "make --eval='x:;rm -rf victim' x", want: Unsure, why: "make --eval"},
		{line: "prlimit --nofile=100 rm -rf victim", want: Match},
		{line: "fakeroot rm -rf victim", want: Match},
		{line: "cd /tmp && git init -q r && cd r && git -c user.name=a -c user.email=b commit -q --allow-empty -m a && git -c user.name=a -c user.email=b rebase -q -x 'rm -rf /tmp/p/victim' --root", want: Match},
		{line: "vim -Es -c '!rm -rf victim' -c q", want: Match},

		// More programs that run a command, a shell line or code.
		{line: "ltrace -o x rm -rf y", want: Match},
		{line: "chroot / rm -rf x", want: Match},
		{line: "nsenter -t 1 -m rm -rf x", want: Match},
		{line: "ionice -c3 rm -rf x", want: Match},
		{line: "taskset -p 1 123", want: NoMatch},
		{line: "flock lockfile -c 'rm -rf x'", want: Match},
		{line: "su -c 'git push' nobody", want: Match},
		{line: `rsync -av -e 'sh -c "rm -rf x"' a b:c`, want: Match},
		{line: "ssh -o ProxyCommand='rm -rf x' host", want: Match},
		{line: "ssh -p 22 host rm -rf x", want: Match},
		{line: "ssh -F ./cfg host", want: Unsure, why: "config file"},
		{line: "tar -I 'rm -rf x' -cf a.tar .", want: Match},
		{line: "tar --to-command='git push' -xf a.tar", want: Match},
		{line: "tar -xf a.tar --info-script=x.sh", want: Unsure, why: "script file"},
		{line: "hyperfine --prepare 'rm -rf x' 'true'", want: Match},
		{line: "entr -s 'rm -rf x'", want: Match},
		{line: "uv run rm -rf x", want: Match},
		{line: "bundle exec git push", want: Match},
		{line: "npm exec -- rm -rf x", want: Match},
		{line: "direnv exec . rm -rf x", want: Match},
		{line: "nix develop -c rm -rf x", want: Match},
		{line: "parallel rm -rf ::: a b", want: Unsure, why: "parallel"},
		{line: "python3 -m pytest -x", want: NoMatch},
		{line: "python3 tests/run.py", want: NoMatch},
		{line: "python3 - <<'EOF'\nimport os\nEOF", want: Unsure, why: "reads the code it runs from its input"},
		{line: "node -e 'require(\"child_process\")'", want: Unsure, why: "node -e"},
		{line: "ruby -e 'x'", want: Unsure, why: "ruby -e"},
		{line: "perl -pi -e 's/a/b/' f", want: Unsure, why: "perl -e"},
		{line: "awk '{print $1}' f", want: NoMatch},
		{line: "awk -F: '$1 == \"a\" || $2 {print}' f", want: NoMatch},
		{line: "awk '{print | \"sh\"}' f", want: Unsure, why: "awk's program runs commands"},
		{line: "awk -f prog.awk f", want: NoMatch},
		{line: "sed -i 's/a/b/g' f", want: NoMatch},
		{line: "sed -n '/x/,$p' f", want: NoMatch},
		{line: "sed 's/.*/rm -rf x/e' f", want: Unsure, why: "sed's script can run a shell line"},
		{line: "sed -e '1e rm -rf x' f", want: Unsure, why: "sed's script"},
		{line: "sed '/start/,/end/ { e date\n}' f", want: Unsure, why: "sed's script"},
		{line: "vim -c wq f", want: NoMatch},
		{line: "vim -c '%s/a/b/g' -c wq f", want: NoMatch},
		{line: "vim -c 'call system(\"rm -rf x\")' f", want: Unsure, why: "editor command"},
		{line: "vim +42 f", want: NoMatch},
		{line: "emacs --batch --eval '(shell-command \"x\")'", want: Unsure, why: "Lisp"},
		{line: "make -j4 test", want: NoMatch},
		{line: "make -f - <<'EOF'\nx:\n\trm -rf y\nEOF", want: Unsure, why: "makefile from its input"},

		// git's settings, aliases and options that run commands.
		{line: "git -c alias.x=y -c alias.y='push --force' x", want: Match},
		{line: "git -c alias.st=status st", want: NoMatch},
		{line: "git -c alias.x=x x", want: Unsure, why: "nest too deeply"},
		{line: "export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0=push; git x origin", want: Match},
		{line: "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0='rm -rf x' git log", want: Match},
		{line: "GIT_CONFIG_KEY_0=$K GIT_CONFIG_VALUE_0=push git x", want: Unsure},
		{line: "git config alias.x push && git status", want: Unsure, why: "writes a git config file"},
		{line: "git config --get user.name && git status", want: NoMatch},
		{line: "git config user.name && git log", want: NoMatch},
		{line: "cp my.cfg ~/.gitconfig && git log", want: Unsure, why: "writes a git config file"},
		{line: "HOME=/tmp/h git status", want: Unsure, why: "HOME makes git read its config"},
		{line: "HOME=/tmp/h go build", want: NoMatch},
		{line: "git --exec-path=./bin status", want: Unsure, why: "--exec-path"},
		{line: "git rebase --exec 'git push' main", want: Match},
		{line: "git rebase -i main", want: NoMatch},
		{line: "git bisect run rm -rf x", want: Match},
		{line: "git submodule foreach --recursive 'git push'", want: Match},
		{line: "git filter-branch --tree-filter 'rm -rf x' HEAD", want: Match},
		{line: "git ls-remote --upload-pack='rm -rf x' .", want: Match},
		{line: "git clone -u 'rm -rf x' . y", want: Match},
		{line: "git clone --template=./t . y", want: Unsure, why: "--template"},
		{line: "git difftool -x 'rm -rf x'", want: Match},
		{line: "git stash push -m x", want: NoMatch},
		{line: "git http-push url main", want: Match},
		{line: "git lfs push origin", want: Unsure, why: "git lfs is not one of git's commands"},
		{line: "git-lfs push origin", want: NoMatch},
		{line: "git -c init.templateDir=./t init", want: NoMatch},

		// bash evaluates what these hold when the line runs.
		{line: "x=1; echo ${!x}", want: Unsure, why: "${!...}"},
		{line: "echo ${!arr[@]}", want: NoMatch},
		{line: `declare "a[\$(rm -rf x)]=1"`, want: Unsure, why: "arithmetic"},
		{line: `unset 'a[$(rm -rf x)]'`, want: Unsure, why: "arithmetic"},
		{line: `[[ -v 'a[$(rm -rf x)]' ]]`, want: Unsure, why: "arithmetic"},
		{line: `read -r line < f`, want: NoMatch},
		{line: `[ -v HOME ]`, want: NoMatch},
	} {
		got, why := judge(t, tc.line)
		if got != tc.want || tc.want == Unsure && !strings.Contains(why, tc.why) {
			t.Errorf("%q: verdict %d (%q), want %d (%q)", tc.line, got, why, tc.want, tc.why)
		}
	}
}

func TestDeepNestingIsUnknown(t *testing.T) {
	line := "rm -rf x"
	for range maxDepth + 2 {
		line = "sh -c " + quote(line)
	}
	if got, why := judge(t, line); got != Unsure || !strings.Contains(why, "nested too deeply") {
		t.Errorf("%d levels of sh -c: %d %q, want unsure, nested too deeply", maxDepth+2, got, why)
	}
}

// quote single-quotes s for a shell.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func TestAllowRules(t *testing.T) {
	var rules []Rule
	for _, text := range []string{"go test", "go vet", "git status", "uv run pytest"} {
		r, err := ParseRule(text)
		if err != nil {
			t.Fatal(err)
		}
		rules = append(rules, r)
	}
	for line, want := range map[string]int{
		"go test ./...":                 0,
		"go vet ./... && go test ./...": 1,
		"'go' test -run X":              0,
		"go test 2>&1":                  0,
		"go test ./... >/dev/null":      0,
		"git status --short":            2,
		"go test ./... ; rm -rf x":      -1,
		"go test $(go list ./...)":      -1,
		`go test "$PKG"`:                -1,
		"FOO=1 go test":                 -1,
		"go test > out.txt":             -1,
		"{ go test; } > out.txt":        -1,
		"(go test) 2>&1":                0,
		"/tmp/x/go test":                -1,
		"go testify":                    -1,
		"timeout 5 go test":             -1,
		"bash -c 'go test'":             -1,
		"go test | tail -5":             -1,
		"go test *":                     -1,
		"go test 'x":                    -1,
		"uv run pytest -x":              3,
		"uv run rm -rf x":               -1,
		"uv run":                        -1,
		"":                              -1,
	} {
		if got := Allowed(Parse(line), rules); got != want {
			t.Errorf("Allowed(%q) = %d, want %d", line, got, want)
		}
	}
}

func TestParseRule(t *testing.T) {
	for _, bad := range []string{"", "  ", "$(x)", "rm; ls", "a | b", "'rm"} {
		if _, err := ParseRule(bad); err == nil {
			t.Errorf("ParseRule(%q) accepted", bad)
		}
	}
	r, err := ParseRule("rm --recursive --force")
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := r.Judge(Parse("rm -rf x")); v != Match {
		t.Errorf("rule rm --recursive --force on rm -rf: %d, want a match", v)
	}
	r, _ = ParseRule("npm publish --tag=beta")
	for line, want := range map[string]Verdict{
		"npm publish --tag=beta": Match,
		"npm publish --tag=next": NoMatch,
		"npm publish":            NoMatch,
	} {
		if v, _ := r.Judge(Parse(line)); v != want {
			t.Errorf("rule %q on %q: %d, want %d", "npm publish --tag=beta", line, v, want)
		}
	}
}

// FuzzDenyMatch checks that no line, however malformed, makes the
// parser or the rules panic, and that a line a deny rule matches is
// never one the allow rules cover.
func FuzzDenyMatch(f *testing.F) {
	for _, s := range []string{
		"rm -rf x", "git -C . push", "x=; r${x}m -rf y", "$(echo git) push", "bash -c 'rm -rf x'",
		"find . -exec rm -rf {} \\;", "env -S 'rm -rf' x", "cat <<EOF\n$(rm -rf x)\nEOF", "a[$(b)]=1; (( a ))",
		"sudo -u", "timeout", "env -S", "git -c", "xargs", "{a,b}", "[[ $x -eq 1 ]]", "f() { :; }",
		"git -c alias.x=push x", "GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0=push git x", "/usr/lib/git-core/git-push",
		"tar --checkpoint-action=exec=x", "sed 's/a/b/e'", "sed '1,/x/!e'", "vim -c '!rm -rf x'", "awk '{system(x)}'",
		"ssh -o ProxyCommand=x h", "flock f -c x", "bash -c ': ${x@P}'", "python3 -c x", "git rebase -x", "uv run",
	} {
		f.Add(s)
	}
	deny, _ := ParseRule("rm -rf")
	echo, _ := ParseRule("echo")
	f.Fuzz(func(t *testing.T, line string) {
		l := Parse(line)
		v, _ := deny.Judge(l)
		switch v {
		case Match:
			found := false
			for _, c := range l.Commands {
				found = found || c.Program() == "rm"
			}
			if !found {
				t.Errorf("%q: matched by rm -rf, but no command runs rm: %+v", line, l.Commands)
			}
		case NoMatch, Unsure:
		default:
			t.Errorf("%q: verdict %d", line, v)
		}
		// A line the allow rule "echo" covers runs nothing but echo.
		if Allowed(l, []Rule{echo}) >= 0 && v != NoMatch {
			t.Errorf("%q: covered by allow echo, yet verdict %d from rm -rf", line, v)
		}
		if r, err := ParseRule(line); err == nil && r.program == "" && len(r.raw) == 0 {
			t.Errorf("ParseRule(%q) accepted an empty rule", line)
		}
	})
}

// BenchmarkParseJudge is what a deny rule costs a typical command.
func BenchmarkParseJudge(b *testing.B) {
	r, _ := ParseRule("git push")
	const line = `cd sub && go test ./... 2>&1 | tail -20; git commit -m "$(cat <<'EOF'
fix: the thing
EOF
)" && timeout 60 git -C . status --short`
	for b.Loop() {
		r.Judge(Parse(line))
	}
}

// TestRmForceIsNoCondition: rm's -f (--force) in a rule asks nothing of
// the command, since without a terminal rm never asks; other programs'
// flags stay conditions (git push --force is not every push).
func TestRmForceIsNoCondition(t *testing.T) {
	for _, tc := range []struct {
		rule, line string
		want       Verdict
	}{
		{"rm -f", "rm x", Match},
		{"rm -f", "rm -r x", Match},
		{"rm --recursive --force", "rm -R x", Match},
		{"rm --recursive --force", "rm x", NoMatch},
		{"rm -rf x", "rm -r -- x -f", Match},
		{"rm -rf x", "rm -r -- y -f", NoMatch},
		{"git push --force", "git push -f origin", Match},
		{"git push --force", "git push origin", NoMatch},
	} {
		r, err := ParseRule(tc.rule)
		if err != nil {
			t.Fatal(err)
		}
		if got, why := r.Judge(Parse(tc.line)); got != tc.want {
			t.Errorf("rule %q on %q: %v (%s), want %v", tc.rule, tc.line, got, why, tc.want)
		}
	}
}
