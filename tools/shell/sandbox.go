package shell

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/agentcli/agent/tools/programs"
)

// Sandbox is the one way a program runs under bubblewrap: run_command's
// commands, and every program a project defines (its MCP servers; hooks
// and language servers start the same way). The fields say what the
// program reaches; the rest is fixed:
//
//   - the system is read-only; /dev, /proc, /tmp, /dev/shm and /run are
//     the sandbox's own, empty (sockets such as docker's are not there);
//   - /home, /root and Home are empty folders in memory: the person's
//     files, keys and configs are not there, only what ReadOnly and
//     Writable show through; as root, the password hashes and the
//     machine's ssh keys read as empty, and no capability is kept;
//   - Root is writable (unless ReadOnlyRoot), except .git and .agent (read-only), and the
//     agent's records in .agent (sessions, audit log, background jobs and
//     their output), which are not there at all, now or once written;
//   - its own PID, IPC and UTS namespaces; it dies with its parent, and
//     the command starts in a session (and process group) of its own.
type Sandbox struct {
	// Bwrap is the bubblewrap program, found where no sandboxed program
	// could have planted it (FindBwrap).
	Bwrap string
	// Root is the project folder, absolute with its links resolved. It
	// is the working folder. It must not be / nor hold Home.
	Root string
	// ReadOnlyRoot shows Root read-only: a program that only reads the
	// project (a language server, which writes only its cache).
	ReadOnlyRoot bool
	// Home is the person's home folder, hidden like /home and /root.
	Home string
	// ReadOnly are folders outside Root shown read-only through the
	// hidden home: a program's own install folder, a toolchain, the
	// tool folders on PATH. Those inside Root are left writable.
	ReadOnly []string
	// Writable are folders outside Root shown writable: build caches, or
	// a cache folder of the program's own.
	Writable []string
	// Protected are paths inside Root or a Writable folder laid
	// read-only over it (run_command's nested git repositories and the
	// files their configs name).
	Protected []string
	// Network gives the program the network; without it, it has only a
	// loopback of its own.
	Network bool
	// TmpSize bounds each folder the sandbox makes writable in memory
	// (/tmp, /dev/shm, the empty homes, /run), in bytes; 0 is no bound.
	// A bubblewrap older than 0.5 cannot bound them (SizeBounds).
	TmpSize int64
	// MemoryLimit bounds the data of each of the program's processes
	// (RLIMIT_DATA), in bytes; 0 is no bound. (run_command bounds all
	// of a command's processes together, with a cgroup, where it can.)
	MemoryLimit int64
	// Env is the program's environment, exactly as given: the caller
	// decides what it holds (and removes the secrets).
	Env []string
}

// ErrNoBwrap is FindBwrap's error when bubblewrap is not installed.
var ErrNoBwrap = errors.New("bubblewrap is not installed (install the package bubblewrap)")

// FindBwrap finds bubblewrap with find (a programs.Resolver's Find,
// which never takes it from a folder a sandboxed program may write). Its
// error says in words why there is none: ErrNoBwrap, or where it was
// found and not taken (programs.ErrUntrusted).
func FindBwrap(find func(string) (string, error)) (string, error) {
	p, err := find("bwrap")
	switch {
	case err == nil:
		return p, nil
	case errors.Is(err, programs.ErrUntrusted):
		return "", err
	}
	return "", ErrNoBwrap
}

// Command returns the command that runs argv (a program's absolute path
// and its arguments) in the sandbox, not yet started, with Env exactly,
// stdin, stdout and stderr for the caller to set. It makes .agent first
// when it is missing: a program must not be able to create it, and plant
// settings there.
func (s Sandbox) Command(argv ...string) (*exec.Cmd, error) {
	line, err := s.Argv(argv...)
	if err != nil {
		return nil, err
	}
	line = launch(line, nil, s.MemoryLimit>>10)
	cmd := exec.Command(line[0], line[1:]...)
	cmd.Env = s.Env
	if cmd.Env == nil {
		cmd.Env = []string{} // nil would mean the agent's own
	}
	cmd.Dir = s.Root
	// A session of its own: no terminal to push keystrokes into, and one
	// process group to end.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
	return cmd, nil
}

// Argv is the program line that runs argv in the sandbox: bubblewrap,
// its options and argv. Like Command, it makes .agent when missing.
func (s Sandbox) Argv(argv ...string) ([]string, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	if len(argv) == 0 {
		return nil, errors.New("sandbox: no program to run")
	}
	if err := os.MkdirAll(filepath.Join(s.Root, ".agent"), 0o755); err != nil {
		return nil, fmt.Errorf("make .agent: %w", err)
	}
	line := append([]string{s.Bwrap}, s.Args()...)
	return append(append(line, "--"), argv...), nil
}

// check refuses a sandbox that could not hide what it must.
func (s Sandbox) check() error {
	home := filepath.Clean(s.Home)
	switch {
	case s.Bwrap == "":
		return ErrNoBwrap
	case !filepath.IsAbs(s.Root) || filepath.Clean(s.Root) == "/":
		return fmt.Errorf("sandbox: the project folder %q cannot be sandboxed: give an absolute folder other than /", s.Root)
	case s.Home != "" && within(s.Root, home):
		return fmt.Errorf("sandbox: the project folder %s holds the home folder, which the sandbox must hide", s.Root)
	}
	return nil
}

// Files that even a read-only system must not show when the agent runs as
// root: password hashes and the machine's ssh keys.
var maskedFiles = []string{"/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-"}

// Args returns the bubblewrap options (before "--"). Later mounts go
// over earlier ones, so the order is: the read-only system, fresh /dev,
// /proc, /tmp and /run, the hidden homes, then what shows through them
// (ReadOnly, then Writable), then the project writable with .git and
// .agent read-only on top, and Protected last.
func (s Sandbox) Args() []string {
	root, home := s.Root, s.Home
	sized := s.TmpSize > 0 && SizeBounds(s.Bwrap)
	tmpfs := func(dir string) []string {
		if sized {
			return []string{"--size", strconv.FormatInt(s.TmpSize, 10), "--tmpfs", dir}
		}
		return []string{"--tmpfs", dir}
	}
	a := []string{
		"--die-with-parent", // the sandbox ends with the agent
		"--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
	}
	if !s.Network {
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
	if s.Network {
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
	for _, d := range s.ReadOnly {
		if !within(root, d) {
			a = append(a, "--ro-bind-try", d, d)
		}
	}
	for _, f := range []string{"credentials", "credentials.toml"} { // cargo's registry tokens
		if p := filepath.Join(home, ".cargo", f); home != "" && isFile(p) {
			a = append(a, "--ro-bind", "/dev/null", p)
		}
	}
	for _, d := range s.Writable {
		if !within(root, d) {
			a = append(a, "--bind-try", d, d)
		}
	}
	if s.ReadOnlyRoot {
		a = append(a, "--ro-bind", root, root)
	} else {
		a = append(a, "--bind", root, root)
	}
	if p := filepath.Join(root, ".git"); exists(p) {
		a = append(a, "--ro-bind", p, p)
	}
	a = append(a, stateArgs(filepath.Join(root, ".agent"))...)
	for _, p := range s.Protected {
		a = append(a, "--ro-bind-try", p, p)
	}
	return append(a, "--chdir", root)
}

// hiddenState are the agent's records in .agent that no sandboxed
// program may read: the sessions (all that was said, read and fetched),
// the audit log (every call), the background jobs' database (their
// commands and last output) and their output files.
var hiddenState = []string{"sessions", "audit.jsonl", "jobs", "jobs.db", "jobs.db-wal", "jobs.db-shm", "jobs.db-journal"}

// stateArgs shows the project's .agent folder read-only without the
// agent's records: an empty folder in memory, made read-only, with each
// other entry there now laid over it read-only (a link is made again as
// a link, never followed to what it names). An entry the agent writes
// later (the first audit line, a job's output file) is not in the
// sandbox, whatever its name. A .agent that is not a real folder is
// mounted as it is, read-only.
func stateArgs(dir string) []string {
	fi, err := os.Lstat(dir)
	switch {
	case err != nil:
		return nil
	case !fi.IsDir():
		return []string{"--ro-bind", dir, dir}
	}
	a := []string{"--tmpfs", dir}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		switch {
		case isHiddenState(e.Name()):
		case e.Type()&fs.ModeSymlink != 0:
			if target, err := os.Readlink(p); err == nil {
				a = append(a, "--symlink", target, p)
			}
		case e.IsDir() || e.Type().IsRegular():
			a = append(a, "--ro-bind-try", p, p)
		}
	}
	return append(a, "--remount-ro", dir)
}

func isHiddenState(name string) bool {
	for _, h := range hiddenState {
		if name == h {
			return true
		}
	}
	return false
}

// sizeBounds remembers, by bubblewrap program, whether it knows --size.
var sizeBounds sync.Map

// SizeBounds reports whether the bubblewrap program bwrap can bound the
// size of the folders it makes in memory (--size, bubblewrap 0.5 and
// later). It asks each program once.
func SizeBounds(bwrap string) bool {
	if v, ok := sizeBounds.Load(bwrap); ok {
		return v.(bool)
	}
	help, _ := exec.Command(bwrap, "--help").CombinedOutput()
	ok := bytes.Contains(help, []byte("--size"))
	sizeBounds.Store(bwrap, ok)
	return ok
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
