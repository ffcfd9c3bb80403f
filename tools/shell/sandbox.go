package shell

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"

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
//   - the .agent folders of the folders above Root, and Masked, are empty
//     and read-only: another project's records are not there either;
//   - nothing is mounted through a link: a path in Root or a Writable
//     folder (where a program may have put links) is mounted at its real
//     place, and only when that is inside those folders too (at);
//   - Env is the program's environment, set by bubblewrap for the
//     program only, inside: what runs outside to start the sandbox
//     (bubblewrap itself) gets the agent's own minimum (outsideEnv), so
//     that an LD_PRELOAD or LD_LIBRARY_PATH an entry names loads nothing
//     outside it;
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
	// Masked are folders outside Root, or inside it, shown empty and
	// read-only: the .agent folders of the other projects where the agent
	// keeps records (those above Root are masked without being named).
	Masked []string
	// Network gives the program the network; without it, it has only a
	// loopback of its own.
	Network bool
	// TmpSize bounds each folder the sandbox makes writable in memory
	// (/tmp, /dev/shm, the empty homes, /run), in bytes; 0 is no bound.
	// A bubblewrap older than 0.5 cannot bound them (SizeBounds).
	TmpSize int64
	// MemoryLimit bounds the data of each of the program's processes
	// (RLIMIT_DATA, set inside the sandbox), in bytes; 0 is no bound.
	// (run_command bounds all of a command's processes together, with a
	// cgroup, where it can.)
	MemoryLimit int64
	// Env is the program's environment, exactly as given: the caller
	// decides what it holds (and removes the secrets). Only the program
	// gets it, inside the sandbox.
	Env []string
}

// outsideEnv is the whole environment of what runs outside the sandbox
// to start it: bubblewrap, and run_command's launcher that puts it in
// its cgroups. Nothing of a program's environment is there: a dynamic
// loader variable would load a project's library into them.
var outsideEnv = []string{"PATH=/usr/sbin:/usr/bin:/sbin:/bin"}

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
// settings there. The environment travels to bubblewrap in a file of
// its own (ExtraFiles), never on its command line, which every user of
// the machine can read; the caller may close this process's copy once
// the command has started (else it is closed when collected).
func (s Sandbox) Command(argv ...string) (*exec.Cmd, error) {
	return s.command(nil, argv...)
}

// command is Command with a launcher: when set, it wraps bubblewrap's
// program line in what starts it (run_command's, which joins the
// command's cgroups), run outside the sandbox with outsideEnv too.
func (s Sandbox) command(launcher func([]string) []string, argv ...string) (*exec.Cmd, error) {
	line, env, err := s.line(argv...)
	if err != nil {
		return nil, err
	}
	if launcher != nil {
		line = launcher(line)
	}
	cmd := exec.Command(line[0], line[1:]...)
	cmd.Env = slices.Clone(outsideEnv)
	if env != nil {
		cmd.ExtraFiles = []*os.File{env} // fd 3: bubblewrap's --args 3
	}
	cmd.Dir = s.Root
	// A session of its own: no terminal to push keystrokes into, and one
	// process group to end.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
	return cmd, nil
}

// line is the program line that runs argv in the sandbox: bubblewrap,
// its options and argv, after what sets the memory limit inside; and the
// file bubblewrap reads the program's environment from (--args 3), nil
// when this bubblewrap cannot set one (older than 0.5: the system's env
// sets it inside, its values then on the command line). Like Command,
// it makes .agent when missing.
func (s Sandbox) line(argv ...string) ([]string, *os.File, error) {
	if err := s.check(); err != nil {
		return nil, nil, err
	}
	if len(argv) == 0 {
		return nil, nil, errors.New("sandbox: no program to run")
	}
	if err := os.MkdirAll(filepath.Join(s.Root, ".agent"), 0o755); err != nil {
		return nil, nil, fmt.Errorf("make .agent: %w", err)
	}
	if s.MemoryLimit > 0 {
		// By a shell of the read-only system, inside: outside, it would
		// run with the program's environment.
		limit := fmt.Sprintf(`ulimit -d %d 2>/dev/null; exec "$@"`, max(s.MemoryLimit>>10, 1))
		argv = append([]string{"/bin/sh", "-c", limit, "sh"}, argv...)
	}
	var env *os.File
	line := []string{s.Bwrap}
	if bwrapKnows(s.Bwrap, "--clearenv") {
		var err error
		if env, err = envArgs(s.Env); err != nil {
			return nil, nil, err
		}
		line = append(line, "--args", "3")
	} else {
		argv = append(append([]string{"/usr/bin/env", "-i"}, s.Env...), argv...)
	}
	line = append(line, s.Args()...)
	return append(append(line, "--"), argv...), env, nil
}

// envArgs is a file in memory holding bubblewrap's options that give
// the program exactly env: --clearenv, then --setenv for each variable.
func envArgs(env []string) (*os.File, error) {
	var b bytes.Buffer
	b.WriteString("--clearenv\x00")
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && k != "" {
			b.WriteString("--setenv\x00" + k + "\x00" + v + "\x00")
		}
	}
	fd, err := unix.MemfdCreate("agent-sandbox-env", unix.MFD_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("sandbox: pass the environment: %w", err)
	}
	f := os.NewFile(uintptr(fd), "agent-sandbox-env")
	if _, err := f.Write(b.Bytes()); err != nil {
		f.Close()
		return nil, fmt.Errorf("sandbox: pass the environment: %w", err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		f.Close()
		return nil, fmt.Errorf("sandbox: pass the environment: %w", err)
	}
	return f, nil
}

// closeExtra closes this process's copies of the files a started
// command was given (its child has its own).
func closeExtra(cmd *exec.Cmd) {
	for _, f := range cmd.ExtraFiles {
		f.Close()
	}
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
// .agent read-only on top, the other projects' records masked, and
// Protected last. Every path a program may have put a link on the way
// to is mounted where its links really lead, or not at all (at).
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
	areas, writable := s.areas()
	for _, d := range s.ReadOnly {
		if p, ok := at(d, areas); ok && !within(root, d) {
			a = append(a, "--ro-bind-try", p, p)
		}
	}
	for _, f := range []string{"credentials", "credentials.toml"} { // cargo's registry tokens
		if p := filepath.Join(home, ".cargo", f); home != "" && isFile(p) {
			a = append(a, "--ro-bind", "/dev/null", p)
		}
	}
	for _, d := range writable {
		if !within(root, d) {
			a = append(a, "--bind-try", d, d)
		}
	}
	if s.ReadOnlyRoot {
		a = append(a, "--ro-bind", root, root)
	} else {
		a = append(a, "--bind", root, root)
	}
	if p, ok := at(filepath.Join(root, ".git"), areas); ok && exists(p) {
		a = append(a, "--ro-bind", p, p)
	}
	if p, ok := at(filepath.Join(root, ".agent"), areas); ok {
		a = append(a, stateArgs(p)...)
	}
	for _, m := range s.masks() {
		if p, ok := at(m, areas); ok && isDir(p) {
			a = append(a, "--tmpfs", p, "--remount-ro", p)
		}
	}
	for _, x := range s.Protected {
		if p, ok := at(x, areas); ok {
			a = append(a, "--ro-bind-try", p, p)
		}
	}
	return append(a, "--chdir", root)
}

// areas are the folders of the host a program in the sandbox may write
// (Root, even when this one shows it read-only, and the Writable folders
// mounted), as named and as they really are: what lies in them may be a
// link a program put there. writable are the Writable folders to mount,
// where to (at): a folder inside another (a cache in a cache) that a
// program made a link out of them is not one of them. The shallowest
// come first, so that a folder is judged by those around it.
func (s Sandbox) areas() (areas, writable []string) {
	areas = []string{s.Root}
	ws := slices.Clone(s.Writable)
	slices.SortStableFunc(ws, func(a, b string) int { return len(a) - len(b) })
	for _, d := range ws {
		p, ok := at(d, areas)
		if !ok {
			continue
		}
		writable = append(writable, p)
		areas = append(areas, p)
		if real, err := filepath.EvalSymlinks(p); err == nil && real != p {
			areas = append(areas, real)
		}
	}
	return areas, writable
}

// at is where to mount the host path p so that the sandbox shows it at
// the place the host does. Bubblewrap follows a link on the way to a
// mount's destination inside the new root, where a link a program put
// in the project (.git -> ../home) would lead to a hidden folder, and
// the host's would be mounted there. So a path inside one of areas is
// mounted at its real path, and only when that lies inside areas too: a
// link out of them means nothing to mount (false; in the sandbox the
// link leads to a hidden, empty or read-only place). A path outside
// areas lies in folders no program writes, and is mounted as named.
func at(p string, areas []string) (string, bool) {
	exposed := func(x string) bool {
		return slices.ContainsFunc(areas, func(d string) bool { return within(d, x) })
	}
	if !exposed(p) {
		return p, true
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", false // missing, or a link to nothing: nothing to mount
	}
	if real != p && !exposed(real) {
		return "", false
	}
	return real, true
}

// masks are the .agent folders to show empty and read-only: those of
// the folders above Root, and Masked, other than Root's own; only those
// the sandbox would show (not under a hidden home, /tmp or /run).
func (s Sandbox) masks() []string {
	var out []string
	for d := filepath.Dir(s.Root); ; d = filepath.Dir(d) {
		out = append(out, filepath.Join(d, ".agent"))
		if d == "/" {
			break
		}
	}
	out = append(out, s.Masked...)
	own := filepath.Join(s.Root, ".agent")
	hidden := []string{"/tmp", "/run", "/dev", "/proc", "/home", "/root"}
	if s.Home != "" {
		hidden = append(hidden, filepath.Clean(s.Home))
	}
	return slices.DeleteFunc(out, func(m string) bool {
		return !filepath.IsAbs(m) || m == own || slices.ContainsFunc(hidden, func(h string) bool { return within(h, m) })
	})
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

// bwrapOptions remembers, by bubblewrap program, its --help.
var bwrapOptions sync.Map

// bwrapKnows reports whether the bubblewrap program bwrap has the option
// opt (its --help names it). It asks each program once.
func bwrapKnows(bwrap, opt string) bool {
	help, ok := bwrapOptions.Load(bwrap)
	if !ok {
		out, _ := exec.Command(bwrap, "--help").CombinedOutput()
		help, _ = bwrapOptions.LoadOrStore(bwrap, out)
	}
	return bytes.Contains(help.([]byte), []byte(opt+" "))
}

// SizeBounds reports whether the bubblewrap program bwrap can bound the
// size of the folders it makes in memory (--size, bubblewrap 0.5 and
// later).
func SizeBounds(bwrap string) bool { return bwrapKnows(bwrap, "--size") }

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
