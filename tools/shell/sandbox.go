package shell

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Files that even a read-only system must not show when the agent runs as
// root: password hashes and the machine's ssh keys.
var maskedFiles = []string{"/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-"}

// bwrapArgs returns the bubblewrap options (before "--") for one command
// in root. Later mounts go over earlier ones, so the order is: the
// read-only system, fresh /dev, /proc, /tmp and /run, the hidden homes,
// then what shows through them (tool folders read-only, caches writable),
// then the project writable with .git and .agent read-only on top. When
// tmpSize is positive, each folder the sandbox makes writable in memory
// (/tmp, /dev/shm, the empty homes and /run) holds at most that many
// bytes, so that no command fills the memory there.
func bwrapArgs(root, home string, caches, toolDirs []string, net bool, tmpSize int64) []string {
	tmpfs := func(dir string) []string {
		if tmpSize > 0 {
			return []string{"--size", strconv.FormatInt(tmpSize, 10), "--tmpfs", dir}
		}
		return []string{"--tmpfs", dir}
	}
	a := []string{
		"--die-with-parent", // the sandbox ends with the agent
		"--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
	}
	if !net {
		a = append(a, "--unshare-net")
	}
	a = append(a,
		"--ro-bind", "/", "/",
		"--dev", "/dev",
	)
	// --dev's /dev/shm is a folder of its tmpfs, which has no size.
	a = append(a, tmpfs("/dev/shm")...)
	a = append(a,
		"--proc", "/proc",
		// Sysctls check only the uid: root without capabilities could
		// still write them (the host name, drop_caches).
		"--ro-bind", "/proc/sys", "/proc/sys",
		"--ro-bind-try", "/proc/sysrq-trigger", "/proc/sysrq-trigger",
	)
	a = append(a, tmpfs("/tmp")...)
	// Sockets stay usable on a read-only mount (the docker or D-Bus
	// socket would be a way out), so /run is emptied.
	a = append(a, tmpfs("/run")...)
	if net {
		a = append(a, "--ro-bind-try", "/run/systemd/resolve", "/run/systemd/resolve")
	}
	for _, d := range []string{"/home", "/root"} {
		if isDir(d) {
			a = append(a, tmpfs(d)...)
		}
	}
	if home != "" && home != "/" && isDir(home) && home != "/root" {
		a = append(a, tmpfs(home)...)
	}
	if os.Geteuid() == 0 {
		masks := append([]string(nil), maskedFiles...)
		keys, _ := filepath.Glob("/etc/ssh/ssh_host_*key")
		for _, f := range append(masks, keys...) {
			if fi, err := os.Lstat(f); err == nil && fi.Mode().IsRegular() {
				a = append(a, "--ro-bind", "/dev/null", f)
			}
		}
		a = append(a, "--cap-drop", "ALL")
	}
	for _, d := range toolDirs {
		if !within(root, d) {
			a = append(a, "--ro-bind-try", d, d)
		}
	}
	for _, f := range []string{"credentials", "credentials.toml"} { // cargo's registry tokens
		if p := filepath.Join(home, ".cargo", f); home != "" && isFile(p) {
			a = append(a, "--ro-bind", "/dev/null", p)
		}
	}
	for _, d := range caches {
		if !within(root, d) {
			a = append(a, "--bind-try", d, d)
		}
	}
	a = append(a, "--bind", root, root)
	for _, name := range []string{".git", ".agent"} {
		if p := filepath.Join(root, name); exists(p) {
			a = append(a, "--ro-bind", p, p)
		}
	}
	return append(a, "--chdir", root)
}

// within reports whether path is dir or lies inside it.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
