package agent

import "strings"

// fenceFilter takes out of the prose shown to the user the markdown fence
// lines that wrap a tool call: models (Gemini especially) write
// "```xml" before a call and "```" after it. The call itself is reported
// as an EventCall, so the fence would show as an empty code block. Only
// what is displayed changes; the conversation keeps the reply as written.
//
// Text that may turn out to be such a fence is held back until the next
// event decides it, so the filter works on deltas split anywhere.
type fenceFilter struct {
	held      string
	afterCall bool
}

// text returns what of s (after anything held) can be shown now.
func (f *fenceFilter) text(s string) string {
	s = f.held + s
	f.held = ""
	if f.afterCall {
		var undecided bool
		s, undecided = dropCloser(s)
		if undecided {
			f.held = s
			return ""
		}
		f.afterCall = false
	}
	i := strings.LastIndexByte(strings.TrimSuffix(s, "\n"), '\n') + 1
	if maybeOpener(s[i:]) {
		f.held = s[i:]
		return s[:i]
	}
	return s
}

// call notes that a call (or a broken one) came: a fence opener held
// right before it is dropped.
func (f *fenceFilter) call() {
	f.held = ""
	f.afterCall = true
}

// flush returns what is still held at the end of the reply.
func (f *fenceFilter) flush() string {
	s := f.held
	f.held = ""
	f.afterCall = false
	return s
}

// maybeOpener reports whether line (one line, with or without its line
// break) is, or may still become, a fence opener: "```" and an optional
// language name.
func maybeOpener(line string) bool {
	t := strings.TrimLeft(line, " \t")
	if t == "" {
		// Indentation of a line not yet ended may be a fence's.
		return line != "" && !strings.HasSuffix(line, "\n")
	}
	if len(t) < 3 {
		return strings.HasPrefix("```", t)
	}
	if !strings.HasPrefix(t, "```") {
		return false
	}
	t = strings.TrimRight(t[3:], " \t\r\n")
	for _, c := range t {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	// A line that has ended is decided; one still open may grow.
	return true
}

// dropCloser removes a closing fence line ("```" alone) at the start of s,
// after optional blank space, keeping that space. undecided is true when s
// is too short to tell.
func dropCloser(s string) (out string, undecided bool) {
	t := strings.TrimLeft(s, " \t\r\n")
	// The blank space kept is up to the closer's own line.
	lead := s[:strings.LastIndexByte(s[:len(s)-len(t)], '\n')+1]
	switch {
	case t == "":
		return s, true
	case len(t) < 3:
		if strings.HasPrefix("```", t) {
			return s, true
		}
		return s, false
	case !strings.HasPrefix(t, "```"):
		return s, false
	}
	rest := strings.TrimLeft(t[3:], " \t")
	switch {
	case rest == "" || rest == "\r":
		return s, true
	case strings.HasPrefix(rest, "\r\n"):
		return lead + rest[2:], false
	case rest[0] == '\n':
		return lead + rest[1:], false
	}
	return s, false // "```go": a new code block, not a closer
}
