package fsedit

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"io/fs"
	"regexp"
	"strings"

	"github.com/agentcli/agent/internal/termtext"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/sandbox"
)

//go:embed search_files.md
var searchDesc string

// Search bounds: matches shown in all and per file, the longest line
// shown, files searched, and the largest file searched.
const (
	maxSearchMatches  = 100
	maxMatchesPerFile = 10
	maxMatchLineLen   = 200
	maxSearchFiles    = 20000
	maxSearchFileSize = 10 << 20
)

// SearchArgs are search_files' parameters.
type SearchArgs struct {
	Pattern string `json:"pattern" jsonschema:"regular expression (RE2 syntax) matched against each line"`
	Path    string `json:"path,omitempty" path:"true" jsonschema:"folder or file to search, relative to the project root; default the root"`
	Glob    string `json:"glob,omitempty" jsonschema:"only files matching this pattern, e.g. *.go or src/**/*.{ts,tsx}"`
}

// SearchTool returns search_files.
func (s *Session) SearchTool() tools.Tool {
	return tools.New("search_files", searchDesc, sandbox.Guarded(s.search, func(a SearchArgs) string { return a.Path }), tools.Acts(tools.ActionSearch))
}

type searcher struct {
	ctx      context.Context
	fsys     fs.FS
	re       *regexp.Regexp
	glob     *sandbox.GlobMatcher
	root     *sandbox.Root
	out      bytes.Buffer
	matches  int // all matches found
	files    int // files with a match
	searched int // files searched
	shown    int
	skipped  []string // files with a match not shown at all
	capped   bool     // maxSearchFiles reached
	// Files not searched, and why: said in one line of the result.
	binary, tooLarge int
	secrets          []string
}

func (s *Session) search(ctx context.Context, a SearchArgs) (tools.Result, error) {
	re, err := regexp.Compile(a.Pattern)
	if err != nil {
		return tools.Errorf(tools.CodeSchemaInvalid, "pattern is not a valid regular expression (%v); escape special characters such as ( [ . * with a backslash", err), nil
	}
	t, err := s.root.Resolve(a.Path)
	if err != nil {
		if rf, ok := sandbox.AsRefusal(sandbox.Target{Asked: a.Path}, err); ok {
			return rf.Result(), nil
		}
		return tools.Result{}, err
	}
	if t.Info == nil {
		return tools.Errorf(tools.CodeFileNotFound, "not found: %s; search the whole project by leaving out path", a.Path), nil
	}
	root, err := s.root.Handle()
	if err != nil {
		return tools.Result{}, err
	}
	sr := &searcher{ctx: ctx, fsys: root.FS(), re: re, root: s.root}
	if a.Glob != "" {
		g, ok := sandbox.NewGlob(a.Glob)
		if !ok {
			return tools.Errorf(tools.CodeSchemaInvalid, "glob %q is not a valid pattern; use shell patterns such as *.go or src/**/*.ts", a.Glob), nil
		}
		sr.glob = &g
	}
	ig := s.ignorer()
	err = fs.WalkDir(sr.fsys, t.Rel, func(rel string, d fs.DirEntry, err error) error {
		if err != nil {
			if rel == t.Rel {
				return err
			}
			return nil // unreadable: skip
		}
		if rel != t.Rel && (sandbox.IsProtected(d.Name()) || ig.Ignored(rel, d.IsDir())) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		if sr.searched >= maxSearchFiles {
			sr.capped = true
			return fs.SkipAll
		}
		return sr.file(rel)
	})
	if err != nil {
		return tools.Result{}, fmt.Errorf("search %s: %w", t.Rel, err)
	}
	return sr.result(a), nil
}

// file searches one file unless it is binary (by extension, or a NUL
// byte anywhere in it), too large, or a secret file.
func (sr *searcher) file(rel string) error {
	if err := sr.ctx.Err(); err != nil {
		return err
	}
	if sr.glob != nil && !sr.glob.Match(rel) {
		return nil
	}
	if rf := sr.root.TypeRefusal(rel, rel); rf != nil {
		if rf.Code == tools.CodePolicyDenied {
			sr.secrets = append(sr.secrets, rel)
		} else {
			sr.binary++
		}
		return nil
	}
	f, err := sr.fsys.Open(rel)
	if err != nil {
		return nil
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil {
		return nil
	} else if sr.root.LinkedSecret(fi) != "" {
		sr.secrets = append(sr.secrets, rel)
		return nil
	} else if fi.Size() > maxSearchFileSize {
		sr.tooLarge++
		return nil
	}
	sr.searched++
	// A NUL byte found late undoes what the file added to the result.
	outLen, matches, files, shown, skipped := sr.out.Len(), sr.matches, sr.files, sr.shown, len(sr.skipped)
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, readBufSize), maxSearchFileSize)
	inFile, shownInFile := 0, 0
	for n := 1; sc.Scan(); n++ {
		line := sc.Bytes()
		if bytes.IndexByte(line, 0) >= 0 {
			sr.out.Truncate(outLen)
			sr.matches, sr.files, sr.shown, sr.skipped = matches, files, shown, sr.skipped[:skipped]
			sr.searched--
			sr.binary++
			return nil
		}
		if !sr.re.Match(line) {
			continue
		}
		inFile++
		sr.matches++
		if inFile == 1 {
			sr.files++
		}
		switch {
		case sr.shown >= maxSearchMatches:
			if inFile == 1 {
				sr.skipped = append(sr.skipped, rel)
			}
		case inFile <= maxMatchesPerFile:
			sr.shown++
			shownInFile++
			text := strings.TrimRight(string(bytes.TrimSuffix(line, []byte("\r"))), " \t")
			fmt.Fprintf(&sr.out, "%s:%d: %s\n", termtext.Name(rel), n, clipLine(text))
		}
	}
	if shownInFile > 0 && inFile > shownInFile {
		fmt.Fprintf(&sr.out, "%s: ... %d more matches in this file\n", rel, inFile-shownInFile)
	}
	return nil // a line too long for the scanner ends that file's search
}

// skipNote says in one line which files were not searched and why.
func (sr *searcher) skipNote() string {
	var parts []string
	if sr.binary > 0 {
		parts = append(parts, sandbox.Plural(sr.binary, "binary file", "binary files"))
	}
	if sr.tooLarge > 0 {
		parts = append(parts, fmt.Sprintf("%s over %s", sandbox.Plural(sr.tooLarge, "file", "files"), sandbox.HumanSize(maxSearchFileSize)))
	}
	if len(sr.secrets) > 0 {
		verb := "hold"
		if len(sr.secrets) == 1 {
			verb = "holds"
		}
		parts = append(parts, fmt.Sprintf("%s that usually %s secrets (%s)", sandbox.Plural(len(sr.secrets), "file", "files"), verb, strings.Join(firstN(sr.secrets, 5), ", ")))
	}
	if len(parts) == 0 {
		return ""
	}
	return "skipped " + strings.Join(parts, ", ")
}

func (sr *searcher) result(a SearchArgs) tools.Result {
	if sr.matches > sr.shown {
		fmt.Fprintf(&sr.out, "... %d matches shown of %d in %s", sr.shown, sr.matches, sandbox.Plural(sr.files, "file", "files"))
		if len(sr.skipped) > 0 {
			fmt.Fprintf(&sr.out, "; %d more files not shown (%s)", len(sr.skipped), strings.Join(firstN(sr.skipped, 5), ", "))
		}
		sr.out.WriteString("; narrow the pattern, path or glob to see the rest\n")
	}
	if sr.capped {
		fmt.Fprintf(&sr.out, "... stopped after %d files; search a subfolder or use a glob\n", maxSearchFiles)
	}
	msg := fmt.Sprintf("%s in %s (%d searched)", sandbox.Plural(sr.matches, "match", "matches"), sandbox.Plural(sr.files, "file", "files"), sr.searched)
	if sr.matches == 0 {
		msg = fmt.Sprintf("no match for %q in %d files searched", a.Pattern, sr.searched)
	}
	if note := sr.skipNote(); note != "" {
		msg += "; " + note
	}
	return tools.Result{
		Message: msg,
		Metadata: []tools.Attr{
			{Name: "matches", Value: sandbox.Itoa(sr.matches)}, {Name: "files", Value: sandbox.Itoa(sr.files)},
			{Name: "shown", Value: sandbox.Itoa(sr.shown)}, {Name: "searched", Value: sandbox.Itoa(sr.searched)},
		},
		Content: sr.out.String(),
	}
}

func clipLine(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= maxMatchLineLen {
		return s
	}
	return termtext.RunePrefix(s, maxMatchLineLen) + " ..."
}

func firstN(s []string, n int) []string {
	if len(s) > n {
		return append(s[:n:n], "...")
	}
	return s
}
