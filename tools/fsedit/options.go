package fsedit

import (
	"path"
	"strings"
	"time"
)

// DefaultMaxReadBytes is the largest file read_file returns whole.
const DefaultMaxReadBytes = 1 << 20

// Backup retention defaults: change sets older than this, or beyond this
// total size (oldest first), are pruned. The newest change set is always kept.
const (
	DefaultBackupMaxAge   = 30 * 24 * time.Hour
	DefaultBackupMaxBytes = 1 << 30
)

// DefaultExtensions are the file extensions the tools read and write
// (lower case, with the dot). Options.Extensions adds to them.
var DefaultExtensions = []string{
	".txt", ".md", ".mdx", ".js", ".ts", ".jsx", ".tsx", ".py", ".java",
	".cpp", ".c", ".h", ".go", ".rs", ".php", ".rb", ".sh", ".json", ".yaml",
	".yml", ".html", ".css", ".scss", ".xml", ".sql",
}

// DefaultNames are well-known file names without a listed extension that
// the tools read and write. Options.Names adds to them.
var DefaultNames = []string{"Makefile", "Dockerfile", "LICENSE", ".gitignore"}

// Options configure the file tools. The zero value is valid: every zero
// field takes its default. cmd/agent maps the user's config onto it.
type Options struct {
	// Extensions and Names extend DefaultExtensions and DefaultNames.
	// Extensions may be given with or without the leading dot.
	Extensions []string
	Names      []string
	// MaxReadBytes is the largest file (or range) read_file returns;
	// DefaultMaxReadBytes when zero.
	MaxReadBytes int64
	// BackupMaxAge and BackupMaxBytes bound the backups kept under
	// .agent/backups; the defaults when zero, no limit when negative.
	BackupMaxAge   time.Duration
	BackupMaxBytes int64
	// Now is the clock of backups and change-set ids; time.Now when nil.
	Now func() time.Time
	// NewIgnorer builds the gitignore matcher of one listing or search for
	// the project folder dir; nil, or an error, means the built-in one.
	NewIgnorer func(dir string) (Ignorer, error)
}

func (o Options) withDefaults() Options {
	if o.MaxReadBytes <= 0 {
		o.MaxReadBytes = DefaultMaxReadBytes
	}
	if o.BackupMaxAge == 0 {
		o.BackupMaxAge = DefaultBackupMaxAge
	}
	if o.BackupMaxBytes == 0 {
		o.BackupMaxBytes = DefaultBackupMaxBytes
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// allowlist decides which file names the tools may read and write.
type allowlist struct {
	exts  map[string]bool
	names map[string]bool
}

func newAllowlist(o Options) allowlist {
	a := allowlist{exts: map[string]bool{}, names: map[string]bool{}}
	for _, e := range append(append([]string(nil), DefaultExtensions...), o.Extensions...) {
		e = strings.ToLower(strings.TrimSpace(e))
		if e == "" {
			continue
		}
		if !strings.HasPrefix(e, ".") {
			e = "." + e
		}
		a.exts[e] = true
	}
	for _, n := range append(append([]string(nil), DefaultNames...), o.Names...) {
		a.names[strings.TrimSpace(n)] = true
	}
	return a
}

// allows reports whether the base name of p is an allowed file type.
// Extensions compare case-insensitively (README.MD is markdown); names
// compare exactly, as they do on the file systems that matter.
func (a allowlist) allows(p string) bool {
	base := path.Base(p)
	if a.names[base] {
		return true
	}
	return a.exts[strings.ToLower(path.Ext(base))]
}

// describe lists the allowed types for an error message.
func (a allowlist) describe() string {
	return "text and code files (.md .txt .go .py .js .ts .json .yaml ...) and Makefile, Dockerfile, LICENSE, .gitignore"
}
