package shell

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Finding is one result of Check.
type Finding struct {
	Name   string // what was checked, as a sentence
	OK     bool
	Detail string // what was seen, when it failed (or how, when it passed)
}

// Check tries the sandbox in the tool's project folder, for agent
// test-tools: that commands run, that the kernel refuses a write to the
// system and to .git, that the home's private folders are hidden, that
// there is no network, that the command has its own PID namespace, and
// which process limit holds. Each probe is a real command.
func (t *Tool) Check(ctx context.Context) []Finding {
	if t.opts.NoSandbox {
		return []Finding{{Name: "commands run in the bubblewrap sandbox", Detail: `shell.sandbox = "off" in your config: commands run unsandboxed, each one asked about`}}
	}
	if res := t.ready(); res != nil {
		return []Finding{{Name: "run_command can run commands here", Detail: res.Message}}
	}
	probes := []struct {
		name, command, want string
	}{
		{"a command runs in the sandbox (bubblewrap " + t.bwrap + ")", "echo sandbox-ok", "sandbox-ok"},
		{"a write outside the project is refused", "touch /usr/.agent-sandbox-probe 2>&1 || echo refused", "refused"},
		{"a write inside .git is refused", "test ! -e .git && echo refused || touch .git/.agent-sandbox-probe 2>&1 || echo refused", "refused"},
		{"~/.ssh and ~/.config are hidden", `test -e "$HOME/.ssh" || test -e "$HOME/.config" || echo hidden`, "hidden"},
		{"the network is off", "grep -vc -e lo: -e Inter -e face /proc/net/dev", "0"},
		{"the command has its own PID namespace", "cat /proc/1/comm", "bwrap"},
	}
	var out []Finding
	for _, p := range probes {
		o, err := t.run(ctx, call{command: p.command, timeout: 10 * time.Second}, false, 4096, nil)
		if err != nil {
			return append(out, Finding{Name: p.name, Detail: err.Error()})
		}
		got := strings.TrimSpace(o.out.String())
		f := Finding{Name: p.name, OK: o.startErr == nil && !o.timedOut && strings.Contains(got, p.want)}
		if !f.OK {
			f.Detail = fmt.Sprintf("got %q (exit %d)", got, o.code)
			if o.startErr != nil {
				f.Detail = o.startErr.Error()
			}
		}
		out = append(out, f)
	}
	lim := Finding{Name: "a process limit bounds fork bombs", OK: t.limit.kind != limitNone}
	switch t.limit.kind {
	case limitCgroup:
		lim.Detail = fmt.Sprintf("%d processes, by a pids cgroup under %s", t.opts.ProcLimit, t.limit.base)
	case limitRlimit:
		lim.Detail = fmt.Sprintf("%d processes, by RLIMIT_NPROC in the sandbox's user namespace", t.opts.ProcLimit)
	default:
		lim.Detail = "none available: as root a writable pids cgroup is needed (RLIMIT_NPROC does not bind root); otherwise the prlimit program"
	}
	out = append(out, lim)
	mem := Finding{Name: "a memory limit bounds each command", OK: true}
	if t.limit.memBase != "" {
		mem.Detail = fmt.Sprintf("%s for all its processes, by a memory cgroup under %s", sizeText(t.opts.MemoryLimit), t.limit.memBase)
	} else {
		mem.Detail = fmt.Sprintf("%s for each of its processes' data, by RLIMIT_DATA (no memory cgroup can be made here)", sizeText(t.opts.MemoryLimit))
	}
	sized := SizeBounds(t.bwrap)
	tmp := Finding{Name: "/tmp and /dev/shm are bounded", OK: sized}
	if sized {
		tmp.Detail = sizeText(t.opts.TmpSize) + " each"
	} else {
		tmp.Detail = "this bubblewrap has no --size (0.5 and later have it)"
	}
	return append(out, mem, tmp)
}
