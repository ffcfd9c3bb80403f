package gitcommit

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentcli/agent/tools"
)

// gitDirOf asks git where the repository of the work tree top keeps its
// git directory, and refuses one outside top that does not name top back
// as its work tree. A .git file or link the project holds
// ("gitdir: /home/me/other/.git", from a download) would otherwise make
// the commit go into another repository after one yes. A linked
// worktree's git directory names it in its gitdir file, a submodule's in
// its core.worktree: those are git's own, and pass.
func gitDirOf(ctx context.Context, r *runner, top string) (string, *tools.Result, error) {
	out, err := r.run(ctx, nil, nil, "rev-parse", "--absolute-git-dir")
	if err != nil {
		if isGitError(err) {
			res := tools.Errorf(tools.CodeFileNotFound, "the project's git directory cannot be found (%v); nothing was committed", err)
			return "", &res, nil
		}
		return "", nil, err
	}
	dir := realPath(strings.TrimSpace(out))
	if within(top, dir) || namesWorkTree(ctx, r, dir, top) {
		return dir, nil, nil
	}
	res := tools.Errorf(tools.CodePolicyDenied,
		"nothing was committed: the project's .git points to %s, a repository outside %s that does not name it as its work tree (a .git file or link from a download can point at another repository); tell the user, who can commit there themselves", dir, top)
	return "", &res, nil
}

// namesWorkTree reports whether the git directory dir names top as its
// work tree: a linked worktree's gitdir file holds the path of top's
// .git file; a submodule's config sets core.worktree to top.
func namesWorkTree(ctx context.Context, r *runner, dir, top string) bool {
	if b, err := os.ReadFile(filepath.Join(dir, "gitdir")); err == nil {
		if p := strings.TrimRight(string(b), "\r\n"); filepath.IsAbs(p) && realPath(p) == realPath(filepath.Join(top, ".git")) {
			return true
		}
	}
	// --file reads that one file, no includes and no programs.
	wt, err := r.run(ctx, nil, nil, "config", "--file", filepath.Join(dir, "config"), "--get", "core.worktree")
	if wt = strings.TrimRight(wt, "\n"); err != nil || wt == "" {
		return false
	}
	if !filepath.IsAbs(wt) {
		wt = filepath.Join(dir, wt)
	}
	return realPath(wt) == top
}

// realPath is p with its links resolved, or p cleaned when it cannot be.
func realPath(p string) string {
	if real, err := filepath.EvalSymlinks(p); err == nil {
		return real
	}
	return filepath.Clean(p)
}
