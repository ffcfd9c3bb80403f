package jobs

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/agentcli/agent/internal/termtext"
)

// Bounds of a notice, so that a job's end costs the model a line, not a
// log.
const (
	noticeTail    = 240 // bytes of the output's end
	noticeLabel   = 80  // characters of the command line
	noticePaths   = 5   // changed files named
	noticeMaxJobs = 5   // jobs told one by one; the rest by id
)

// TakeNotices returns one line for each job of this process that ended
// since the last call (oldest first, each once), except those whose end
// the model already read (job_output, job_stop) or that the closing
// conversation stopped, and the project files that changed while they
// ran. The agent loop adds the lines to the model's next user turn; the
// files are the agent's own doing, not someone else's, for its watcher.
// A nil Manager has none.
func (m *Manager) TakeNotices() (lines, changed []string) {
	if m == nil {
		return nil, nil
	}
	m.mu.Lock()
	var list []ended
	for _, e := range m.ended {
		if !m.seen[e.job.ID] {
			list = append(list, e)
			m.seen[e.job.ID] = true
		}
	}
	m.ended = nil
	m.mu.Unlock()
	var more []string
	for i, e := range list {
		changed = append(changed, e.end.Changed...)
		if i < noticeMaxJobs {
			lines = append(lines, noticeLine(e.job, e.end))
		} else {
			more = append(more, strconv.FormatInt(e.job.ID, 10))
		}
	}
	if len(more) > 0 {
		lines = append(lines, fmt.Sprintf("Background jobs %s ended too: job_output shows how.", strings.Join(more, ", ")))
	}
	return lines, changed
}

// noticeLine says in one line how job j ended: its status, the summary,
// the end of its output, the files changed and the alerts.
func noticeLine(j Job, end End) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Background job %d (%s) ", j.ID, shorten(j.Label, noticeLabel))
	switch j.Status {
	case Stopped:
		if how, ok := strings.CutPrefix(j.LastError, "stopped "); ok {
			fmt.Fprintf(&b, "was stopped %s: %s.", how, end.Summary) // "with agent jobs stop"
		} else {
			fmt.Fprintf(&b, "was stopped (%s): %s.", j.LastError, end.Summary)
		}
	case Failed:
		if end.Err != "" {
			fmt.Fprintf(&b, "failed: %s.", strings.TrimSuffix(end.Err, "."))
		} else {
			fmt.Fprintf(&b, "ended: %s.", end.Summary)
		}
	default:
		fmt.Fprintf(&b, "ended: %s.", end.Summary)
	}
	if tail := lastBytes(end.Tail, noticeTail); tail != "" {
		fmt.Fprintf(&b, " Output ends: %q.", tail)
		if len(tail) < len(strings.TrimRight(end.Tail, "\n")) {
			fmt.Fprintf(&b, " job_output job_id=%d shows more.", j.ID)
		}
	} else if end.Err == "" {
		b.WriteString(" No output.")
	}
	if len(end.Changed) > 0 {
		var names []string
		for _, n := range end.Changed[:min(len(end.Changed), noticePaths)] {
			names = append(names, shorten(n, noticeLabel))
		}
		fmt.Fprintf(&b, " Project files changed while it ran: %s", strings.Join(names, ", "))
		if rest := len(end.Changed) - len(names); rest > 0 {
			fmt.Fprintf(&b, " and %d more", rest)
		}
		b.WriteString(".")
	}
	for _, a := range end.Alerts {
		b.WriteString(" " + termtext.OneLine(a))
	}
	return b.String()
}

// lastBytes is about the last n bytes of s, from a line start when one is
// near, on whole characters and valid UTF-8.
func lastBytes(s string, n int) string {
	s = strings.TrimRight(s, "\n")
	if len(s) > n {
		s = s[len(s)-n:]
		if i := strings.IndexByte(s, '\n'); i >= 0 && i < n/2 {
			s = s[i+1:]
		}
		for len(s) > 0 && s[0]&0xC0 == 0x80 { // a cut character
			s = s[1:]
		}
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// shorten is s on one line, at most n bytes.
func shorten(s string, n int) string { return termtext.Clip(termtext.OneLine(s), n) }
