package gitcommit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/agentcli/agent/internal/termtext"
)

// maxOutput bounds what is kept of one git command's output.
const maxOutput = 1 << 20

// neutral are the settings every git command runs with: the repository's
// own configuration (.git/config, which a downloaded project brings)
// must not make our git run a program. Hooks are switched off unless the
// user's config allows them (hooksOff); filters the repository's own
// configuration defines are emptied too (repoFilters).
var neutral = [][2]string{
	{"core.fsmonitor", "false"},   // a program run on every index read
	{"commit.gpgSign", "false"},   // gpg.program
	{"gc.auto", "0"},              // no gc (nor its pre-auto-gc hook) after the commit
	{"maintenance.auto", "false"}, // nor maintenance
	{"core.pager", "cat"},         // no pager (--no-pager, and no terminal)
	{"core.editor", "true"},       // the message comes from -F; never an editor
	{"sequence.editor", "true"},   // likewise
	{"credential.helper", ""},     // nothing to ask credentials for
}

// hooksOff points git at no hooks at all: pre-commit, commit-msg,
// post-commit, and also post-index-change and reference-transaction,
// which a plain commit would otherwise run.
var hooksOff = [2]string{"core.hooksPath", "/dev/null"}

// runner runs git in one project folder with the neutral settings.
type runner struct {
	git   string // the program, from trusted places
	dir   string
	hooks bool
	// extra are settings added after the first look at the repository
	// (the repository's own filters, emptied).
	extra [][2]string
}

// identity are the GIT_ variables a commit keeps from the agent's
// environment: who the user says they are.
var identity = map[string]bool{
	"GIT_AUTHOR_NAME": true, "GIT_AUTHOR_EMAIL": true, "GIT_AUTHOR_DATE": true,
	"GIT_COMMITTER_NAME": true, "GIT_COMMITTER_EMAIL": true, "GIT_COMMITTER_DATE": true,
}

// env is the environment of a git command: the agent's own without the
// other GIT_ variables (one could point git at another repository or
// index, or add settings), then the settings as GIT_CONFIG_COUNT entries (which, unlike -c, take
// any name), then vars.
func (r *runner) env(vars ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, "GIT_") || identity[name] {
			env = append(env, kv)
		}
	}
	settings := append([][2]string{}, neutral...)
	if !r.hooks {
		settings = append(settings, hooksOff)
	}
	settings = append(settings, r.extra...)
	for i, kv := range settings {
		env = append(env, fmt.Sprintf("GIT_CONFIG_KEY_%d=%s", i, kv[0]), fmt.Sprintf("GIT_CONFIG_VALUE_%d=%s", i, kv[1]))
	}
	env = append(env, fmt.Sprintf("GIT_CONFIG_COUNT=%d", len(settings)),
		"GIT_TERMINAL_PROMPT=0", "GIT_LITERAL_PATHSPECS=1", "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C")
	return append(env, vars...)
}

// run runs git args with stdin and the extra environment vars, and
// returns its output; a failure is an error carrying git's own message
// in one line.
func (r *runner) run(ctx context.Context, stdin []byte, vars []string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, r.git, append([]string{"--no-pager"}, args...)...)
	cmd.Dir = r.dir
	cmd.Env = r.env(vars...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errOut capped
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		msg := strings.TrimSpace(errOut.String())
		if msg == "" {
			msg = strings.TrimSpace(out.String())
		}
		if msg == "" {
			msg = err.Error()
		}
		return out.String(), &gitError{args: args, msg: termtext.OneLine(msg)}
	}
	return out.String(), nil
}

// gitError is a git command that failed, with its message.
type gitError struct {
	args []string
	msg  string
}

func (e *gitError) Error() string { return "git " + e.args[0] + ": " + e.msg }

func isGitError(err error) bool {
	var g *gitError
	return errors.As(err, &g)
}

// capped keeps the first maxOutput bytes written to it.
type capped struct{ bytes.Buffer }

func (c *capped) Write(p []byte) (int, error) {
	if room := maxOutput - c.Len(); room > 0 {
		c.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// repoFilters returns settings that empty every filter driver the
// repository's own configuration defines (its .git/config and what that
// includes): a clean or process filter is a program git runs on `add`.
// Drivers of the user's own (global) or the system's configuration, such
// as Git LFS, are the user's and keep working.
func (r *runner) repoFilters(ctx context.Context) ([][2]string, error) {
	out, err := r.run(ctx, nil, nil, "config", "-z", "--show-scope", "--get-regexp", `^filter\.`)
	if err != nil {
		if isGitError(err) { // exit 1: no such setting
			return nil, nil
		}
		return nil, err
	}
	// -z: scope NUL key LF value NUL, for each entry.
	parts := strings.Split(out, "\x00")
	seen := map[string]bool{}
	var settings [][2]string
	for i := 0; i+1 < len(parts); i += 2 {
		scope := parts[i]
		key, _, _ := strings.Cut(parts[i+1], "\n")
		if scope == "global" || scope == "system" {
			continue
		}
		// git names it filter.<driver>.<variable>; the driver may hold dots.
		rest, ok := strings.CutPrefix(key, "filter.")
		dot := strings.LastIndexByte(rest, '.')
		if !ok || dot <= 0 {
			continue
		}
		name := rest[:dot]
		if seen[name] {
			continue
		}
		seen[name] = true
		for _, k := range []string{"clean", "smudge", "process"} {
			settings = append(settings, [2]string{"filter." + name + "." + k, ""})
		}
		settings = append(settings, [2]string{"filter." + name + ".required", "false"})
	}
	return settings, nil
}
