// Package quiet keeps lipgloss's package initialisation from running
// `tmux info`; see package startup for why and for the other start-up
// tricks.
//
// lipgloss builds a package-level colour writer for os.Stdout at init
// (lipgloss.Writer). Inside tmux, with stdout a terminal, its colour
// detection starts `tmux info` to learn whether tmux passes true colour:
// a fork and exec that every command of the binary paid before main, 6 to
// 14 ms here, whether or not it ever drew a colour. Nothing in this
// program uses lipgloss.Writer (the chat's renderer detects the profile
// for itself), so TMUX is hidden while lipgloss initialises and put back
// by the chat package's init (Restore), which runs after lipgloss's since
// the chat imports it.
//
// Why this init runs before lipgloss's, by the spec's rule for package
// initialisation (Go 1.21 and later): at each step the first package in
// import-path order whose imports are all initialised goes next. This
// package imports syscall alone, so it is ready as soon as syscall is, and
// from then on no package whose path sorts after its own can go before
// it. os is one (any path under github.com sorts before "os"), and
// lipgloss cannot initialise before os, whose Stdout it writes to. A test
// keeps the two conditions: syscall the only import, the path before
// "os". Nothing else here may be imported: os would do, but it is the
// one that must wait.
package quiet

import "syscall"

var (
	tmux   string
	hidden bool
)

func init() {
	tmux, hidden = syscall.Getenv("TMUX")
	if hidden {
		syscall.Unsetenv("TMUX")
	}
}

// Restore puts TMUX back in the environment. It is called from an init
// that runs after lipgloss's; calling it again does nothing.
func Restore() {
	if hidden {
		syscall.Setenv("TMUX", tmux)
		hidden = false
	}
}
