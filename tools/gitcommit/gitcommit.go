// Package gitcommit is the git_commit tool: a commit of the project's
// changes, made with the person's consent by git outside the sandbox
// (inside it .git is read-only, rightly), with the repository's
// program-running settings neutralised.
//
// What is committed is built in a temporary index from HEAD: the named
// paths as they are in the working tree (or every change to the files
// HEAD tracks inside the project), so that the question shows exactly
// what the commit will hold, whatever else the person has staged; after
// the commit the person's own index takes the committed state of those
// paths only.
package gitcommit

import (
	"context"
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/agentcli/agent/internal/termtext"
	"github.com/agentcli/agent/tools"
)

//go:embed git_commit.md
var description string

// Name is the tool's name in the catalog.
const Name = "git_commit"

// Options configure the tool; Hooks and AutoCommit come from the user's
// own configuration only.
type Options struct {
	// Git is the git program, found in trusted places.
	Git string
	// Hooks lets the repository's hooks run (git.hooks).
	Hooks bool
	// AutoCommit lets a commit be approved like other writes
	// (git.auto_commit); otherwise only a person's yes to each runs it.
	AutoCommit bool
	// Secret reports a path whose name says it holds secrets (.env, a
	// key): such a path is never named in a commit. nil: none is.
	Secret func(path string) bool
}

// Args are git_commit's parameters.
type Args struct {
	Message string `json:"message" verbatim:"true" jsonschema:"the commit message"`
	Paths   string `json:"paths,omitempty" jsonschema:"project paths, space- or newline-separated; none: all tracked changes"`
}

// Tool is git_commit. It implements tools.Previewer: the question shows
// the summary of what will be committed and the message.
type Tool struct {
	tools.Tool
	root string
	opts Options

	mu sync.Mutex
	// shown is the tree each call's question showed, by call id: a
	// commit whose content changed since is refused.
	shown map[string]string
}

// New returns git_commit for the project at root (absolute).
func New(root string, opts Options) *Tool {
	t := &Tool{root: root, opts: opts, shown: map[string]string{}}
	consent := tools.NeverAutoApproved()
	if opts.AutoCommit {
		consent = tools.Writes()
	}
	t.Tool = tools.New(Name, description, t.commit, consent, tools.Acts(tools.ActionExecute), tools.NotServed(), tools.OnDemand())
	return t
}

// staged is what a call would commit.
type staged struct {
	tree  string   // the tree of the temporary index
	names []string // the paths it changes
	stat  string   // git diff --stat of it
	top   string   // the repository's top folder
	// gitDir is the repository's git directory, links resolved: in top,
	// or a linked worktree's or submodule's that names top back.
	gitDir string
	root   string  // the project folder, its links resolved
	head   string  // HEAD's commit; "" before the first commit
	index  string  // the temporary index file
	done   func()  // removes it
	r      *runner // git, as it ran for this call
}

// Preview builds what the call would commit and shows its summary and
// the message. A call that would fail (no repository, a path outside the
// project, nothing to commit) is answered without asking anyone.
func (t *Tool) Preview(ctx context.Context, in tools.Input) (tools.Preview, *tools.Result, error) {
	a := args(in)
	if res := checkMessage(a.Message); res != nil {
		return tools.Preview{}, res, nil
	}
	st, res, err := t.stage(ctx, a.Paths)
	if err != nil || res != nil {
		return tools.Preview{}, res, err
	}
	st.done()
	t.mu.Lock()
	if len(t.shown) >= 64 { // questions answered no: never executed
		clear(t.shown)
	}
	t.shown[in.CallID] = st.tree
	t.mu.Unlock()
	lines := strings.Split(strings.TrimRight(st.stat, "\n"), "\n")
	if len(lines) > 40 {
		lines = append(lines[:39], fmt.Sprintf("… and %d more lines", len(lines)-39))
	}
	lines = append(lines, "repository: "+st.top)
	if !within(st.top, st.gitDir) {
		lines = append(lines, "git directory: "+st.gitDir)
	}
	lines = append(lines, "", "message:")
	for _, l := range strings.Split(strings.TrimRight(a.Message, "\n"), "\n") {
		lines = append(lines, "  "+termtext.OneLine(l))
	}
	lines = append(lines, "", "git runs outside the sandbox; /undo does not undo a commit")
	return tools.Preview{
		Summary: fmt.Sprintf("commit %d file%s: %s", len(st.names), plural(len(st.names)), subject(a.Message)),
		Lines:   lines,
	}, nil, nil
}

func args(in tools.Input) Args {
	var a Args
	a.Message, _ = in.Values["message"].(string)
	a.Paths, _ = in.Values["paths"].(string)
	return a
}

func checkMessage(msg string) *tools.Result {
	if strings.TrimSpace(msg) == "" {
		res := tools.Errorf(tools.CodeSchemaInvalid, "message is empty: say what the commit does")
		return &res
	}
	return nil
}

func subject(msg string) string {
	s, _, _ := strings.Cut(strings.TrimSpace(msg), "\n")
	return termtext.OneLine(s)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// commit makes the commit the person approved.
func (t *Tool) commit(ctx context.Context, a Args) (tools.Result, error) {
	if res := checkMessage(a.Message); res != nil {
		return *res, nil
	}
	st, res, err := t.stage(ctx, a.Paths)
	if err != nil || res != nil {
		return deref(res), err
	}
	defer st.done()
	id := tools.Info(ctx).CallID
	t.mu.Lock()
	shown, asked := t.shown[id]
	delete(t.shown, id)
	t.mu.Unlock()
	if asked && shown != st.tree {
		return tools.Errorf(tools.CodeFileStale, "nothing was committed: the files changed after the user was shown what the commit would hold; call git_commit again"), nil
	}
	r := st.r
	args := []string{"commit", "--quiet", "--no-gpg-sign", "--cleanup=whitespace", "-F", "-"}
	if !t.opts.Hooks {
		args = append(args, "--no-verify")
	}
	if _, err := r.run(ctx, []byte(a.Message), []string{"GIT_INDEX_FILE=" + st.index}, args...); err != nil {
		return gitFailure("nothing was committed", err)
	}
	commit, err := r.run(ctx, nil, nil, "rev-parse", "HEAD")
	if err != nil {
		return gitFailure("the commit was made but its id could not be read", err)
	}
	commit = strings.TrimSpace(commit)
	res = &tools.Result{
		Message:  fmt.Sprintf("committed %s: %s", short(commit), subject(a.Message)),
		Metadata: []tools.Attr{{Name: "commit", Value: commit}},
		Content:  st.stat + "\nCommit " + commit + ". /undo does not undo a commit: only the user can take it back (git reset --soft HEAD~1 keeps the changes).",
	}
	// The person's index: the committed paths as committed, the rest
	// as they staged it.
	if _, err := r.run(ctx, []byte(strings.Join(st.names, "\x00")), nil, "reset", "--quiet", "--pathspec-from-file=-", "--pathspec-file-nul"); err != nil {
		res.Alerts = append(res.Alerts, "the commit was made, but git's index still shows its files as changed: run git reset -- "+strings.Join(st.names, " "))
		res.Content += "\n" + res.Alerts[0]
	}
	return *res, nil
}

func deref(r *tools.Result) tools.Result {
	if r == nil {
		return tools.Result{}
	}
	return *r
}

func short(id string) string { return id[:min(len(id), 12)] }

// gitFailure answers a git command that failed: git's own message for
// the model (an identity not set, a path git ignores), or the program's
// failure.
func gitFailure(what string, err error) (tools.Result, error) {
	if isGitError(err) {
		return tools.Errorf(tools.CodeProviderError, "%s: %v", what, err), nil
	}
	return tools.Result{}, err
}

// stage builds the temporary index of a call: HEAD, then the named paths
// (or every tracked file inside the project) as they are now.
func (t *Tool) stage(ctx context.Context, rawPaths string) (*staged, *tools.Result, error) {
	if t.opts.Git == "" {
		res := tools.Errorf(tools.CodeProviderError, "git was not found in a trusted place; tell the user to commit themselves")
		return nil, &res, nil
	}
	paths, res := t.parsePaths(rawPaths)
	if res != nil {
		return nil, res, nil
	}
	r := &runner{git: t.opts.Git, dir: t.root, hooks: t.opts.Hooks}
	top, err := r.run(ctx, nil, nil, "rev-parse", "--show-toplevel")
	if err != nil {
		if isGitError(err) {
			res := tools.Errorf(tools.CodeFileNotFound, "the project is not in a git repository (%v); nothing was committed", err)
			return nil, &res, nil
		}
		return nil, nil, err
	}
	top = strings.TrimSpace(top)
	root := t.root
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real // git names its top folder with the links resolved
	}
	if !within(top, root) {
		res := tools.Errorf(tools.CodePathOutsideRoot, "git's work tree %s does not hold the project; nothing was committed", top)
		return nil, &res, nil
	}
	gitDir, res, err := gitDirOf(ctx, r, top)
	if err != nil || res != nil {
		return nil, res, err
	}
	if r.extra, err = r.repoFilters(ctx); err != nil {
		return nil, nil, err
	}
	dir, err := os.MkdirTemp("", "agent-commit-")
	if err != nil {
		return nil, nil, fmt.Errorf("git_commit: %w", err)
	}
	st := &staged{r: r, top: top, gitDir: gitDir, root: root, index: filepath.Join(dir, "index"), done: func() { os.RemoveAll(dir) }}
	fail := func(what string, err error) (*staged, *tools.Result, error) {
		st.done()
		res, err := gitFailure(what, err)
		if err != nil {
			return nil, nil, err
		}
		return nil, &res, nil
	}
	idx := []string{"GIT_INDEX_FILE=" + st.index}
	if head, err := r.run(ctx, nil, nil, "rev-parse", "--verify", "--quiet", "HEAD^{commit}"); err == nil {
		st.head = strings.TrimSpace(head)
		_, err = r.run(ctx, nil, idx, "read-tree", st.head)
		if err != nil {
			return fail("nothing was committed", err)
		}
	} else if ctx.Err() != nil {
		return fail("", ctx.Err())
	} else if _, err := r.run(ctx, nil, idx, "read-tree", "--empty"); err != nil {
		return fail("nothing was committed", err)
	}
	add := []string{"add", "--all", "--"}
	if len(paths) == 0 {
		add = []string{"add", "--update", "--", "."}
	}
	if _, err := r.run(ctx, nil, idx, append(add, paths...)...); err != nil {
		return fail("nothing was committed", err)
	}
	names, err := r.run(ctx, nil, idx, "diff", "--cached", "--no-renames", "--name-only", "-z", "--no-ext-diff", "--no-textconv")
	if err != nil {
		return fail("nothing was committed", err)
	}
	st.names = strings.FieldsFunc(names, func(r rune) bool { return r == 0 })
	if len(st.names) == 0 {
		st.done()
		what := "the named paths have no changes"
		if len(paths) == 0 {
			what = "the files git tracks in the project have no changes (new files must be named in paths)"
		}
		res := tools.Errorf(tools.CodeNoMatch, "nothing to commit: %s", what)
		return nil, &res, nil
	}
	if st.stat, err = summary(ctx, r, idx); err != nil {
		return fail("nothing was committed", err)
	}
	if st.tree, err = r.run(ctx, nil, idx, "write-tree"); err != nil {
		return fail("nothing was committed", err)
	}
	st.tree = strings.TrimSpace(st.tree)
	return st, nil, nil
}

// summary is what the temporary index changes, in git diff --cached
// --stat's terms but one file a line without padding (a question shows
// runs of blanks as such): "changed a.txt (+1 -1)", then git's own total
// line.
func summary(ctx context.Context, r *runner, idx []string) (string, error) {
	diff := []string{"diff", "--cached", "--no-renames", "--no-ext-diff", "--no-textconv", "-z"}
	status, err := r.run(ctx, nil, idx, append(diff, "--name-status")...)
	if err != nil {
		return "", err
	}
	counts, err := r.run(ctx, nil, idx, append(diff, "--numstat")...)
	if err != nil {
		return "", err
	}
	total, err := r.run(ctx, nil, idx, "diff", "--cached", "--no-renames", "--no-ext-diff", "--no-textconv", "--shortstat")
	if err != nil {
		return "", err
	}
	// --numstat -z: "added TAB deleted TAB path NUL"; "-" counts for a
	// binary file.
	lines := map[string]string{}
	for _, rec := range strings.Split(counts, "\x00") {
		f := strings.SplitN(rec, "\t", 3)
		if len(f) != 3 {
			continue
		}
		switch {
		case f[0] == "-":
			lines[f[2]] = "binary"
		case f[1] == "0":
			lines[f[2]] = "+" + f[0]
		case f[0] == "0":
			lines[f[2]] = "-" + f[1]
		default:
			lines[f[2]] = "+" + f[0] + " -" + f[1]
		}
	}
	words := map[string]string{"A": "added", "D": "deleted", "M": "changed", "T": "changed type of"}
	var b strings.Builder
	// --name-status -z: "STATUS NUL path NUL".
	recs := strings.Split(status, "\x00")
	for i := 0; i+1 < len(recs); i += 2 {
		word := words[recs[i]]
		if word == "" {
			word = recs[i]
		}
		fmt.Fprintf(&b, "%s %s (%s)\n", word, recs[i+1], lines[recs[i+1]])
	}
	b.WriteString(strings.TrimSpace(total) + "\n")
	return b.String(), nil
}

// within reports whether path is dir or inside it.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && filepath.IsLocal(rel) || rel == "."
}

// parsePaths reads the paths parameter: one path a line, or several on a
// line separated by spaces (a whole line that names an existing path is
// one path, spaces and all). Each must be inside the project and not in
// .git or .agent.
func (t *Tool) parsePaths(raw string) ([]string, *tools.Result) {
	var paths []string
	for _, line := range strings.Split(raw, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if _, err := os.Lstat(filepath.Join(t.root, filepath.FromSlash(line))); err == nil || !strings.Contains(line, " ") {
			paths = append(paths, line)
			continue
		}
		paths = append(paths, strings.Fields(line)...)
	}
	for i, p := range paths {
		clean := filepath.Clean(filepath.FromSlash(p))
		if !filepath.IsLocal(clean) {
			res := tools.Errorf(tools.CodePathOutsideRoot, "path %s is outside the project; name project paths relative to its folder", p)
			return nil, &res
		}
		first, _, _ := strings.Cut(filepath.ToSlash(clean), "/")
		if first == ".git" || first == ".agent" {
			res := tools.Errorf(tools.CodePolicyDenied, "path %s is in %s, which is never committed by the agent", p, first)
			return nil, &res
		}
		if t.opts.Secret != nil && t.opts.Secret(clean) {
			res := tools.Errorf(tools.CodePolicyDenied, "path %s usually holds secrets (keys, passwords), so the agent never commits it; leave it out, and tell the user if it should be committed", p)
			return nil, &res
		}
		paths[i] = filepath.ToSlash(clean)
	}
	return paths, nil
}
