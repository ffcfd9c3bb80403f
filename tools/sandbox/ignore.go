package sandbox

// Ignorer decides which paths list_directory and search_files skip. The
// caller injects the project's gitignore matcher (package prompt's, the
// one the file tree uses) through Options.NewIgnorer, so the model's
// listings and the file tree always agree.
type Ignorer interface {
	// Ignored reports whether rel (slash-separated, relative to the
	// project root) is ignored; isDir says whether it is a folder.
	Ignored(rel string, isDir bool) bool
}

// NoIgnore ignores nothing: the matcher when none was configured.
type NoIgnore struct{}

func (NoIgnore) Ignored(string, bool) bool { return false }
