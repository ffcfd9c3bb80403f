package prompt

import (
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var gitDirs = flag.String("gitdirs", "", "comma-separated real project folders to copy and compare with git")

// TestIgnoreRealTreesAgainstGit copies real projects (-gitdirs), adds
// files that each line of their ignore files would match, and compares
// the result with git. It is opt-in because it needs real trees.
func TestIgnoreRealTreesAgainstGit(t *testing.T) {
	if *gitDirs == "" {
		t.Skip("no -gitdirs given")
	}
	for _, src := range strings.Split(*gitDirs, ",") {
		t.Run(filepath.Base(src), func(t *testing.T) {
			root := gitRepo(t, nil)
			copyTree(t, src, root)
			addArtifacts(t, root)
			c, w, n := compareWithGit(t, root, t.Errorf)
			t.Logf("%s: %d of %d comparisons agree (%d paths ignored by git)", src, c-w, c, n)
		})
	}
}

func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		r, _ := filepath.Rel(src, p)
		if e.Name() == ".git" {
			return filepath.SkipDir
		}
		target := filepath.Join(dst, r)
		switch {
		case e.IsDir():
			return os.MkdirAll(target, 0o755)
		case e.Type().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(target, data, 0o644)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// addArtifacts creates, next to every ignore file, a path that each of
// its lines describes, and the same path one folder deeper.
func addArtifacts(t *testing.T, root string) {
	t.Helper()
	var ignoreFiles []string
	filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err == nil && e.Name() == ".gitignore" {
			ignoreFiles = append(ignoreFiles, p)
		}
		if err == nil && e.Name() == ".git" {
			return filepath.SkipDir
		}
		return nil
	})
	sample := strings.NewReplacer("**", "d1/d2", "*", "x", "?", "q", "\\", "", "[", "", "]", "", "!", "")
	for _, f := range ignoreFiles {
		data, _ := os.ReadFile(f)
		for _, line := range strings.Split(string(data), "\n") {
			line = strings.TrimSpace(line)
			if line == "" || line[0] == '#' {
				continue
			}
			isDir := strings.HasSuffix(line, "/")
			rel := strings.Trim(sample.Replace(line), "/")
			if rel == "" || strings.Contains(rel, "..") {
				continue
			}
			for _, at := range []string{filepath.Dir(f), filepath.Join(filepath.Dir(f), "zz_deeper")} {
				p := filepath.Join(at, filepath.FromSlash(rel))
				if isDir {
					p = filepath.Join(p, "inside.txt")
				}
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					continue // a file already has that name
				}
				if _, err := os.Stat(p); err == nil {
					continue
				}
				os.WriteFile(p, nil, 0o644)
			}
		}
	}
}
