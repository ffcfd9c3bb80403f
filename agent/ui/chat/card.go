package chat

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/xmlcall"
	"github.com/agentcli/agent/internal/termtext"
	"github.com/agentcli/agent/tools"
)

// card is the chat's view of one tool call: shown when the call is
// recognised in the stream, spinning while it runs, then ✓ or the error
// code and message with the duration. A finished card is printed into the
// scrollback; its full result stays available to the toggle key.
type card struct {
	id      string
	tool    string
	params  string // the key parameters, one line
	running bool   // tool_start seen (or assumed) and no result yet
	started time.Time
	result  *agent.CallResult
	// output is the end of what a running command printed, shown under
	// the card, line by line, while it runs.
	output string
	// hooks are the lines of what hooks did about the call (hooks.go).
	hooks []string
}

// cardOutputLines is how many of the last lines of a running command's
// output its card shows; cardOutputKeep how many bytes it keeps for them.
const (
	cardOutputLines = 5
	cardOutputKeep  = 4096
)

// addOutput keeps the end of a running call's output.
func (c *card) addOutput(text string) {
	c.output += text
	if len(c.output) > cardOutputKeep {
		c.output = c.output[len(c.output)-cardOutputKeep:]
	}
}

// outputLines are the last lines of the output, as a terminal would show
// them: a carriage return (a progress bar) starts its line over.
func (c *card) outputLines() []string {
	var out []string
	for _, l := range strings.Split(strings.ReplaceAll(c.output, "\r\n", "\n"), "\n") {
		l = strings.TrimRight(l, "\r")
		if i := strings.LastIndexByte(l, '\r'); i >= 0 {
			l = l[i+1:]
		}
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out[max(len(out)-cardOutputLines, 0):]
}

func newCard(c *xmlcall.Call, now time.Time) *card {
	return &card{id: c.ID, tool: c.Name, params: keyParams(c.Params), started: now}
}

// keyParams picks the parameters that say what a call is about: the
// path, the line range, the pattern or command; long values are
// summarised by their size, long runs of blanks counted.
func keyParams(ps []xmlcall.Param) string {
	get := func(name string) string {
		for _, p := range ps {
			if p.Name == name {
				return strings.TrimSpace(p.Value)
			}
		}
		return ""
	}
	var parts []string
	for _, n := range []string{"file_path", "path", "pattern", "glob", "command", "query", "url", "id"} {
		if v := get(n); v != "" && !strings.Contains(v, "\n") && len(v) <= 80 {
			parts = append(parts, v)
		}
	}
	if s, e := get("start_line"), get("end_line"); s != "" || e != "" {
		parts = append(parts, fmt.Sprintf("lines %s-%s", s, e))
	}
	if op := get("operation_type"); op != "" {
		parts = append(parts, "("+op+")")
	}
	if c := get("content"); c != "" {
		// The newlines that open and close a value are layout, not lines.
		if n := strings.Count(strings.Trim(c, "\n"), "\n") + 1; n == 1 {
			parts = append(parts, "1 line")
		} else {
			parts = append(parts, fmt.Sprintf("%d lines", n))
		}
	}
	if len(parts) == 0 {
		for _, p := range ps {
			v := strings.TrimSpace(p.Value)
			if len(v) > 40 || strings.Contains(v, "\n") {
				v = fmt.Sprintf("(%d bytes)", len(p.Value))
			}
			parts = append(parts, p.Name+"="+v)
			if len(parts) == 3 {
				break
			}
		}
	}
	return termtext.Drawn(termtext.ShowBlanks(strings.Join(parts, " ")))
}

// view renders the card on one line, truncated to width, and its alerts
// below it, wrapped.
func (c *card) view(st *styles, frame string, now time.Time, width int) string {
	return c.render(st, frame, now, width, false)
}

// render draws the card; waiting shows a running call as queued (while
// the user is being asked about a write, nothing runs).
func (c *card) render(st *styles, frame string, now time.Time, width int, waiting bool) string {
	head := "  " + st.tool.Render(c.tool)
	if c.params != "" {
		head += " " + st.dim.Render(c.params)
	}
	var tail string
	switch {
	case c.result == nil && c.running && !waiting:
		tail = st.warn.Render(frame) + " " + st.dim.Render(formatDuration(now.Sub(c.started)))
	case c.result == nil:
		tail = st.dim.Render("…")
	default:
		r := c.result
		dur := ""
		if r.Duration > 0 {
			dur = " " + st.dim.Render(formatDuration(r.Duration))
		}
		switch r.Outcome() {
		case agent.OutcomeOK:
			msg := ""
			if r.Result.Message != "" {
				msg = " " + st.dim.Render(termtext.Drawn(r.Result.Message))
			}
			if r.Rule != "" {
				// The user's rule let it run unasked: say which.
				msg += " " + st.dim.Render("· allowed by "+termtext.Drawn(r.Rule))
			}
			msg += diagnosticsTag(st, r.Result.Diagnostics)
			tail = st.ok.Render("✓") + dur + msg
		case agent.OutcomeSkipped:
			tail = st.dim.Render("– skipped")
		default:
			tail = st.fail.Render("✗ "+r.Result.Code) + dur + " " + termtext.Drawn(r.Result.Message)
		}
	}
	line := head + "  " + tail
	if width > 0 && ansi.StringWidth(line) > width {
		line = ansi.Truncate(line, width-1, "…")
	}
	for _, h := range c.hooks {
		line += "\n" + hookLine(st, width, h)
	}
	if c.result != nil {
		line += c.alerts(st, width)
	} else if c.running && !waiting {
		for _, l := range c.outputLines() {
			l = st.dim.Render("    │ ") + termtext.Drawn(l)
			if width > 0 && ansi.StringWidth(l) > width-1 {
				l = ansi.Truncate(l, width-1, "…")
			}
			line += "\n" + l
		}
	}
	return line
}

// diagnosticsTag is what the language servers said of the files a call
// changed, after its message: "· 2 errors" in the failure colour, "· no
// errors" dim; nothing when none looked.
func diagnosticsTag(st *styles, d *tools.Diagnostics) string {
	s := d.Summary()
	switch {
	case s == "":
		return ""
	case d.Errors > 0:
		return " " + st.fail.Render("· "+s)
	}
	return " " + st.dim.Render("· "+s)
}

// alerts are the lines under a finished card that the person must read
// (a git repository a command planted, moved away), wrapped, never cut.
func (c *card) alerts(st *styles, width int) string {
	var b strings.Builder
	for _, a := range c.result.Result.Alerts {
		text := termtext.Drawn(a)
		if width > 8 {
			text = ansi.Wrap(text, width-6, "")
		}
		for i, l := range strings.Split(text, "\n") {
			mark := "    ! "
			if i > 0 {
				mark = "      "
			}
			b.WriteString("\n" + st.warn.Render(mark+l))
		}
	}
	return b.String()
}

// full renders the card's whole result for the toggle key.
func (c *card) full(st *styles, width int) string {
	if c.result == nil {
		return st.dim.Render("  (no result yet)")
	}
	r := c.result.Result
	var b strings.Builder
	b.WriteString(st.dim.Render("  ┌ "+c.tool+" result") + "\n")
	body := r.Content
	if body == "" {
		body = r.Message
	}
	lines := strings.Split(strings.TrimRight(termtext.Drawn(body), "\n"), "\n")
	const most = 200
	for i, l := range lines {
		if i == most {
			fmt.Fprintf(&b, "%s\n", st.dim.Render(fmt.Sprintf("  │ … %d more lines", len(lines)-most)))
			break
		}
		if width > 6 {
			l = ansi.Truncate(l, width-5, "…")
		}
		b.WriteString(st.dim.Render("  │ ") + st.diffLine(l) + "\n")
	}
	b.WriteString(st.dim.Render("  └"))
	return b.String()
}

// formatDuration shows 340ms, 2.1s, 1m05s.
func formatDuration(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}
