package main

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// chatReady is what the chat shows once it takes keys.
const chatReady = "Ask, or /help"

// chat launches the chat of bin in a new tmux pane (100×30) and returns
// the time until its prompt is ready (tmux's own start and the polling
// included: about 16-20 ms here for a shell's echo) as wall, and its
// resident memory after a second idle as maxRSS; then closes it.
func (h *harness) chat(bin string) (sample, error) {
	h.panes++
	name := fmt.Sprintf("c%d", h.panes)
	tmux := func(args ...string) (string, error) {
		out, err := exec.Command("tmux", append([]string{"-L", h.socket}, args...)...).CombinedOutput()
		if err != nil {
			return "", fmt.Errorf("tmux %s: %v: %s", args[0], err, out)
		}
		return string(out), nil
	}
	if h.panes == 1 {
		// A session that stays keeps the tmux server up between chats.
		if _, err := tmux("-f", "/dev/null", "new-session", "-d", "-s", "keep", "-x", "80", "-y", "10", "sleep 86400"); err != nil {
			return sample{}, err
		}
	}
	start := time.Now()
	command := append(append([]string{"new-session", "-d", "-s", name, "-x", "100", "-y", "30", "-c", h.project, "env"}, h.env...), bin)
	if _, err := tmux(command...); err != nil {
		return sample{}, err
	}
	defer func() {
		tmux("kill-session", "-t", name)
		// Let the chat exit before the next process starts: on a small
		// machine its exit would be measured too.
		time.Sleep(300 * time.Millisecond)
	}()
	for {
		screen, err := tmux("capture-pane", "-p", "-t", name)
		if err != nil {
			return sample{}, err
		}
		if strings.Contains(screen, chatReady) {
			break
		}
		if time.Since(start) > 20*time.Second {
			return sample{}, fmt.Errorf("the chat was not ready after 20 s; screen:\n%s", screen)
		}
	}
	wall := time.Since(start)
	out, err := tmux("display", "-p", "-t", name, "#{pane_pid}")
	if err != nil {
		return sample{}, err
	}
	pid, err := strconv.Atoi(strings.TrimSpace(out))
	if err != nil {
		return sample{}, err
	}
	time.Sleep(time.Second)
	rss := statusKiB(pid, "VmRSS")
	if rss == 0 {
		return sample{}, fmt.Errorf("the chat (pid %d) left before it was measured", pid)
	}
	return sample{wall: wall, maxRSS: rss}, nil
}

// statusKiB is a field of /proc/PID/status in KiB (VmRSS, VmHWM), 0 if
// unknown.
func statusKiB(pid int, field string) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	_, rest, _ := strings.Cut(string(data), field+":")
	kb, _, _ := strings.Cut(strings.TrimSpace(rest), " ")
	n, _ := strconv.ParseInt(kb, 10, 64)
	return n
}
