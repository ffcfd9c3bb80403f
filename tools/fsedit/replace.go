package fsedit

import (
	"context"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/agentcli/agent/internal/termtext"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/sandbox"
	"github.com/agentcli/agent/tools/sandbox/backup"
)

// replaceKeep is the largest file a replace edits: it works on the whole
// text in memory. A larger file takes partial writes, which stream.
const replaceKeep = rewriteKeep

// match is where a replace found old_text: byte offsets in the text and
// the 1-based lines it spans.
type match struct {
	off, first, last int
}

// replace swaps the exact text old_text for content, once (old_text must
// be unique) or everywhere (replace_all). Needing no line numbers, it
// cannot land on the wrong lines, whatever earlier writes of the reply
// did to the file.
func (s *Session) replace(ctx context.Context, e *edit) (tools.Result, error) {
	a := e.args
	if a.OldText == nil || *a.OldText == "" {
		return tools.Errorf(tools.CodeSchemaInvalid, "replace needs old_text, the exact text to change as read_file shows it (a few lines are enough when they are unique)"), nil
	}
	if e.fi.Size() > replaceKeep {
		return tools.Errorf(tools.CodeFileTooLarge, "%s is %s, over the %s a replace edits; use operation_type partial with the line numbers", e.t.Asked, sandbox.HumanSize(e.fi.Size()), sandbox.HumanSize(replaceKeep)), nil
	}
	old, err := readOld(ctx, e.src, replaceKeep)
	if err != nil {
		return tools.Result{}, err
	}
	if old.sum != hex.EncodeToString(e.seen.sum[:]) {
		return tools.Result{}, sandbox.ErrStale
	}
	if old.st.binary {
		return sandbox.BinaryResult(e.t.Asked), nil
	}
	text := string(old.text)
	bom := strings.HasPrefix(text, sandbox.UTF8BOM)
	text = strings.TrimPrefix(text, sandbox.UTF8BOM)

	needle, repl := *a.OldText, a.Content
	found := strings.Count(text, needle)
	// The model's text has \n breaks (read shows CRLF files so); in a
	// CRLF file, so must the match and the new text.
	if found == 0 && strings.Contains(text, "\r\n") && strings.Contains(needle, "\n") {
		if n := strings.Count(text, withBreaks(needle, "\r\n")); n > 0 {
			needle, repl, found = withBreaks(needle, "\r\n"), withBreaks(repl, "\r\n"), n
		}
	}
	// A value written on its own lines ends in a break that the last line
	// of a file without a final newline lacks.
	if found == 0 && strings.HasSuffix(needle, "\n") {
		n2 := strings.TrimSuffix(needle, "\n")
		if n2 != "" && strings.HasSuffix(text, n2) && strings.Count(text, n2) == 1 {
			needle, repl, found = n2, strings.TrimSuffix(repl, "\n"), 1
		}
	}
	if found == 0 {
		return tools.Errorf(tools.CodeNoMatch, "old_text is not in %s: %s; copy it exactly as read_file shows it (whitespace too), or read the file again", e.t.Asked, closest(text, *a.OldText)), nil
	}
	if found > 1 && !a.ReplaceAll {
		return tools.Errorf(tools.CodeNoMatch, "old_text occurs %d times in %s (lines %s); add surrounding lines to make it unique, or set replace_all to true to change every one", found, e.t.Asked, matchLines(findAll(text, needle, 9), 8)), nil
	}
	// The new text is built in memory, so its size is worked out first:
	// a short old_text found 200,000 times and a long content would ask
	// for gigabytes before anyone could say no.
	if size := int64(len(text)) + int64(found)*(int64(len(repl))-int64(len(needle))); size > replaceKeep {
		return tools.Errorf(tools.CodeFileTooLarge, "replacing %s in %s would make it %s, over the %s a replace writes; change fewer occurrences at a time, or make the file smaller first", sandbox.Plural(found, "occurrence", "occurrences"), e.t.Asked, sandbox.HumanSize(size), sandbox.HumanSize(replaceKeep)), nil
	}
	matches := findAll(text, needle, found)
	oldLines := strings.Split(needle, "\n")
	if n, l, ok := findPlaceholder(splitContent(repl), len(oldLines), lineSet(strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n"))); ok {
		return tools.Errorf(tools.CodeContentPlaceholder, "content line %d (%q) stands in for text it does not contain; send the real text that replaces old_text", n, l), nil
	}

	newText := strings.Replace(text, needle, repl, len(matches))
	if bom {
		newText = sandbox.UTF8BOM + newText
	}
	rep, err := s.newReplacement(e, sandbox.KeptMode(e.fi))
	if err != nil {
		return tools.Result{}, sandbox.DescribeWriteErr(e.t.Rel, err)
	}
	rep.Watch(ctx)
	rep.WriteString(newText)
	newTotal := countLines(newText)

	delta := strings.Count(repl, "\n") - strings.Count(needle, "\n")
	e.known = knownAfterReplace(e.seen.known, matches, delta, e.info.CallID)
	blob, err := s.commitEdit(ctx, e, rep, old.sum, backup.OpReplace, newTotal)
	if err != nil {
		return tools.Result{}, err
	}
	if len(matches) > maxTrackedMatches {
		// One shift for all: lines below the first match count as moved
		// by the whole change, which at worst asks for a fresh read.
		s.noteShift(e.info.ChangeSet, e.t.Rel, matches[0].last+1, delta*len(matches), false)
	} else {
		for _, m := range matches {
			s.noteShift(e.info.ChangeSet, e.t.Rel, m.last+1, delta, false)
		}
	}
	// The new numbers of the written lines: each match moved by the
	// deltas of those above it.
	var written []string
	for i, m := range matches {
		first := m.first + i*delta
		written = append(written, fmt.Sprintf("%d-%d", first, first+m.last-m.first+delta))
		if i == 7 && len(matches) > 8 {
			written = append(written, "...")
			break
		}
	}
	meta := writeMeta(old.st.lines, newTotal, old.st.ending, e.info.ChangeSet, blob)
	meta = append(meta, tools.Attr{Name: "written", Value: strings.Join(written, ",")})
	res := tools.Result{
		Message:  fmt.Sprintf("replaced %s in %s; it now has %s (was %d); the changed lines are now %s%s", sandbox.Plural(len(matches), "occurrence", "occurrences"), e.t.Rel, sandbox.Plural(newTotal, "line", "lines"), old.st.lines, strings.Join(written, ", "), backupNote(blob)),
		Metadata: meta,
		Changed:  []string{e.t.Rel},
	}
	if len(text) <= diffKeep {
		res.Content = shortDiff(e.t.Rel, strings.ReplaceAll(text, "\r\n", "\n"), strings.ReplaceAll(strings.TrimPrefix(newText, sandbox.UTF8BOM), "\r\n", "\n"))
	}
	return res, nil
}

// maxTrackedMatches is the most matches of one replace whose lines are
// followed one by one in what the model knows: each costs a pass over
// the spans known, so a replace_all of a one-letter old_text in a large
// file would otherwise take quadratic time.
const maxTrackedMatches = 1000

// knownAfterReplace is what the model knows of the file after the
// matches (bottom first, so the numbers of the ones above still hold)
// became their new text of delta more lines each. Past
// maxTrackedMatches, the lines from the first match to the last are
// taken as one write: known if the model knew all of them before,
// forgotten otherwise.
func knownAfterReplace(known []lineSpan, matches []match, delta int, call string) []lineSpan {
	if len(matches) <= maxTrackedMatches {
		for i := len(matches) - 1; i >= 0; i-- {
			m := matches[i]
			known = shiftSpans(known, m.first, m.last, m.last-m.first+1+delta, call)
		}
		return known
	}
	first, last := matches[0].first, matches[len(matches)-1].last
	n := last - first + 1 + delta*len(matches)
	seen := covers(known, first, last)
	known = shiftSpans(known, first, last, n, call)
	if !seen && n > 0 {
		known = known[:len(known)-1] // the span shiftSpans adds for the written lines
	}
	return known
}

// findAll returns the first limit non-overlapping matches of needle in
// text.
func findAll(text, needle string, limit int) []match {
	out := make([]match, 0, min(limit, 1024))
	line, counted := 1, 0
	for off := 0; len(out) < limit; {
		i := strings.Index(text[off:], needle)
		if i < 0 {
			return out
		}
		at := off + i
		line += strings.Count(text[counted:at], "\n")
		counted = at
		last := line + strings.Count(strings.TrimSuffix(needle, "\n"), "\n")
		out = append(out, match{off: at, first: line, last: last})
		off = at + len(needle)
	}
	return out
}

func matchLines(ms []match, n int) string {
	var parts []string
	for i, m := range ms {
		if i == n {
			parts = append(parts, "...")
			break
		}
		parts = append(parts, sandbox.Itoa(m.first))
	}
	return strings.Join(parts, ", ")
}

// closest says where the text most like old_text is, so the model can
// fix its copy: a match but for whitespace, or else the line most like
// old_text's first line.
func closest(text, oldText string) string {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	want := strings.Split(strings.TrimSuffix(oldText, "\n"), "\n")
	squash := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	// Whitespace only: same lines once indentation and spacing are set aside.
	if len(want) <= len(lines) {
		for i := 0; i+len(want) <= len(lines); i++ {
			ok := true
			for j, w := range want {
				if squash(lines[i+j]) != squash(w) {
					ok = false
					break
				}
			}
			if ok && squash(want[0]) != "" {
				return fmt.Sprintf("lines %d-%d hold the same text with other whitespace (indentation, tabs or spaces)", i+1, i+len(want))
			}
		}
	}
	first := ""
	for _, w := range want {
		if strings.TrimSpace(w) != "" {
			first = squash(w)
			break
		}
	}
	best, bestScore := -1, 0.0
	for i, l := range lines {
		if sc := similarity(first, squash(l)); sc > bestScore {
			best, bestScore = i, sc
		}
	}
	if best < 0 || bestScore < 0.3 {
		return "no line is like its first line"
	}
	return fmt.Sprintf("the closest line is %d: %q", best+1, termtext.RunePrefix(strings.TrimSpace(lines[best]), 120))
}

// similarity is the Dice coefficient of the two strings' byte bigrams:
// 1 for equal strings, 0 for nothing in common. Cheap, and good enough
// to point at a line that differs by a typo or a renamed word.
func similarity(a, b string) float64 {
	if len(a) < 2 || len(b) < 2 {
		if a == b && a != "" {
			return 1
		}
		return 0
	}
	if len(b) > 4*len(a)+16 {
		b = b[:4*len(a)+16] // a long line cannot be much like a short one
	}
	grams := make(map[string]int, len(a))
	for i := 0; i+1 < len(a); i++ {
		grams[a[i:i+2]]++
	}
	common := 0
	for i := 0; i+1 < len(b); i++ {
		if grams[b[i:i+2]] > 0 {
			grams[b[i:i+2]]--
			common++
		}
	}
	return 2 * float64(common) / float64(len(a)-1+len(b)-1)
}
