// Package quietinit keeps lipgloss's package initialisation from running
// `tmux info`.
//
// lipgloss builds a package-level colour writer for os.Stdout at init
// (lipgloss.Writer). Inside tmux, with stdout a terminal, its colour
// detection starts `tmux info` to learn whether tmux passes true colour:
// a fork and exec that every command of the binary paid before main, 6 to
// 14 ms here, whether or not it ever drew a colour. Nothing in this
// program uses lipgloss.Writer (the chat's renderer detects the profile
// for itself), so the variable is hidden while lipgloss initialises and
// put back by the chat package's init, which runs after lipgloss's.
//
// This works because Go initialises packages in the order of their import
// paths among those whose imports are done: this package needs only os,
// and its path sorts before github.com/charmbracelet/colorprofile, which
// lipgloss needs, so it always runs first.
package quietinit

import "os"

var (
	tmux   string
	hidden bool
)

func init() {
	tmux, hidden = os.LookupEnv("TMUX")
	if hidden {
		os.Unsetenv("TMUX")
	}
}

// Restore puts TMUX back in the environment. It is called from an init
// that runs after lipgloss's; calling it again does nothing.
func Restore() {
	if hidden {
		os.Setenv("TMUX", tmux)
		hidden = false
	}
}
