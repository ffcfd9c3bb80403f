package sandbox

import "time"

// DefaultMaxReadBytes is the largest file read_file returns whole.
const DefaultMaxReadBytes = 1 << 20

// Backup retention defaults: change sets older than this, or beyond this
// total size (oldest first), are pruned. The newest change set is always kept.
const (
	DefaultBackupMaxAge   = 30 * 24 * time.Hour
	DefaultBackupMaxBytes = 1 << 30
)

// Options configure the file tools. The zero value is valid: every zero
// field takes its default. cmd/agent maps the user's config onto it.
type Options struct {
	// Extensions and Names are accepted for old configurations
	// (files.extra_extensions) and ignored: every text file is editable,
	// decided by its content (see Root).
	Extensions []string
	Names      []string
	// AllowSecrets are globs (path.Match syntax, against the project path
	// and against the base name) of files that usually hold secrets which
	// the tools may read, write and search all the same, such as
	// ".env.local" or "config/*.key". Take them only from the user's own
	// configuration: a project must not unlock its own secrets.
	AllowSecrets []string
	// ReadBudget, when set, returns the most bytes a whole-file read
	// (no range) may return now, as the conversation's context allows;
	// 0 means no budget. A larger file is read as its first lines that
	// fit, with the line to continue from; a rewrite of a file larger
	// than the budget is refused (use replace or partial writes).
	ReadBudget func() int
	// MaxReadBytes is the largest file (or range) read_file returns;
	// DefaultMaxReadBytes when zero.
	MaxReadBytes int64
	// BackupMaxAge and BackupMaxBytes bound the backups kept under
	// .agent/backups; the defaults when zero, no limit when negative.
	BackupMaxAge   time.Duration
	BackupMaxBytes int64
	// Now is the clock of backups and change-set ids; time.Now when nil.
	Now func() time.Time
	// BackupKey returns the key that signs the backup manifest's entries
	// (HMAC-SHA256): only entries signed with it are restored without
	// force, so a cloned repository's .agent/backups cannot make undo
	// write its content. cmd/agent keeps it in the user's configuration
	// folder. It is called once, when the backups are first used; nil
	// (or a nil key) signs with a key made for this process, which later
	// processes cannot verify.
	BackupKey func() []byte
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
