package shell

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Git's own rules for what a git directory is, as its setup.c reads
// them (is_git_directory, validate_headref, get_common_dir_noenv,
// read_gitfile_gently): the guard must see every folder git would take
// for one, or a command could plant one git sees and the guard does not.
//
// A folder is a git directory when its HEAD is valid (a symlink into
// refs/, "ref: refs/...", or an object name) and its common directory
// has objects/ and refs/. The common directory is the folder itself, or
// the one its commondir file names (how linked worktrees share one
// repository): so HEAD plus a commondir file is a git directory whose
// config and hooks live wherever commondir points. The guard is
// generous where git is strict (a commondir file whose target lacks
// objects/ or refs/ still counts: the next command could fill it).

// maxGitFile bounds what is read of HEAD, commondir and .git files: git
// itself reads 256 bytes of HEAD; a path is short.
const maxGitFile = 4096

// readSmall reads at most maxGitFile bytes of the regular file p.
func readSmall(p string) ([]byte, bool) {
	f, err := os.Open(p)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, false
	}
	b, err := io.ReadAll(io.LimitReader(f, maxGitFile))
	return b, err == nil
}

// validHead reports whether the file at p is a HEAD git accepts.
func validHead(p string) bool {
	fi, err := os.Lstat(p)
	if err != nil {
		return false
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		target, err := os.Readlink(p)
		return err == nil && strings.HasPrefix(target, "refs/")
	}
	b, ok := readSmall(p)
	if !ok {
		return false
	}
	if ref, ok := bytes.CutPrefix(b, []byte("ref:")); ok {
		return bytes.HasPrefix(bytes.TrimLeft(ref, " \t\n\v\f\r"), []byte("refs/"))
	}
	return hexPrefix(b, 40) // a detached HEAD: SHA-1, or the start of SHA-256
}

func hexPrefix(b []byte, n int) bool {
	if len(b) < n {
		return false
	}
	for _, c := range b[:n] {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// commonDirOf is the folder the commondir file of the git directory dir
// names, as git resolves it (relative to dir, trailing line breaks
// dropped and nothing else); "" when there is none.
func commonDirOf(dir string) string {
	b, ok := readSmall(filepath.Join(dir, "commondir"))
	if !ok {
		return ""
	}
	s := strings.TrimRight(string(b), "\r\n")
	if s == "" {
		return ""
	}
	if !filepath.IsAbs(s) {
		s = filepath.Join(dir, s)
	}
	return filepath.Clean(s)
}

// isGitDir reports whether git takes the folder dir, whose entries are
// names, for a git directory.
func isGitDir(dir string, names map[string]bool) bool {
	if !names["HEAD"] || !validHead(filepath.Join(dir, "HEAD")) {
		return false
	}
	if names["commondir"] {
		return true
	}
	return names["objects"] && names["refs"]
}

// gitdirOf is the folder a .git file points to ("gitdir: ../x"), as git
// reads it: after "gitdir: ", up to the trailing line breaks, relative to
// the file's folder; "" when p is no such file.
func gitdirOf(p string) string {
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	b, ok := readSmall(p)
	if !ok {
		return ""
	}
	dir, ok := strings.CutPrefix(strings.TrimRight(string(b), "\r\n"), "gitdir: ")
	if !ok || dir == "" {
		return ""
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(filepath.Dir(p), dir)
	}
	return filepath.Clean(dir)
}

// gitMarkers are the entries that make a folder a git directory: moving
// the new ones away (HEAD last) makes it none.
var gitMarkers = []string{"HEAD", "commondir", "objects", "refs"}

// repoNames are the entries a git directory holds; a folder holding
// nothing else is a repository alone, and moves away whole.
func repoName(name string) bool {
	switch name {
	case "HEAD", "config", "config.worktree", "description", "hooks", "info", "objects", "refs", "packed-refs",
		"logs", "index", "FETCH_HEAD", "ORIG_HEAD", "MERGE_HEAD", "MERGE_MSG", "MERGE_MODE", "CHERRY_PICK_HEAD",
		"REVERT_HEAD", "BISECT_LOG", "COMMIT_EDITMSG", "branches", "worktrees", "modules", "commondir", "gitdir",
		"shallow", "lfs", "rr-cache", "sequencer", "rebase-merge", "rebase-apply", "reftable", "filter-repo":
		return true
	}
	return false
}

// gitEntries are what git reads from a git directory or its common
// directory to decide what to run: protected read-only when the folder
// also holds the person's files (so it cannot be mounted whole).
var gitEntries = []string{"HEAD", "commondir", "config", "config.worktree", "hooks", "info", "gitdir"}
