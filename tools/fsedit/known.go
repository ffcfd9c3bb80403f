package fsedit

import (
	"fmt"
	"sort"
	"strings"
)

// lineSpan is lines from..to (1-based, inclusive) of a file that the model
// saw, through the call that showed them: a read, or a write of its own.
// A span with to < from stands for a file with no lines, seen whole.
type lineSpan struct {
	from, to int
	call     string
}

// covers reports whether the spans together hold every line from..to;
// for an empty range (to < from), whether anything was seen at all.
func covers(known []lineSpan, from, to int) bool {
	if to < from {
		return len(known) > 0
	}
	sorted := append([]lineSpan(nil), known...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].from < sorted[j].from })
	next := from
	for _, s := range sorted {
		if s.from > next {
			break
		}
		next = max(next, s.to+1)
	}
	return next > to
}

// whole reports whether the model saw all of the file in this state.
func (s fileState) whole() bool { return covers(s.known, 1, s.lines) }

// shiftSpans renumbers what the model knows after a partial write of
// lines start..end by n new lines (call): spans above keep their
// numbers, spans below move by the change in line count, the replaced
// lines are gone, and the written lines are known (the model sent them).
func shiftSpans(known []lineSpan, start, end, n int, call string) []lineSpan {
	delta := n - (end - start + 1)
	var out []lineSpan
	for _, s := range known {
		if s.to < s.from {
			continue // "empty file seen": no longer true
		}
		if s.to < start {
			out = append(out, s)
			continue
		}
		if s.from > end {
			out = append(out, lineSpan{s.from + delta, s.to + delta, s.call})
			continue
		}
		if s.from < start {
			out = append(out, lineSpan{s.from, start - 1, s.call})
		}
		if s.to > end {
			out = append(out, lineSpan{end + 1 + delta, s.to + delta, s.call})
		}
	}
	if n > 0 {
		out = append(out, lineSpan{start, start + n - 1, call})
	}
	return out
}

// ForgetCall makes the reads of one call no longer count as seen, for
// the write guards: the conversation no longer holds what it showed
// (its result was elided to save context). A later write of those lines
// needs them read again; what other calls showed still counts.
func (s *Session) ForgetCall(callID string) {
	if callID == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for rel, st := range s.seen {
		kept := st.known[:0:0]
		for _, sp := range st.known {
			if sp.call != callID {
				kept = append(kept, sp)
			}
		}
		if len(kept) == 0 {
			delete(s.seen, rel)
			continue
		}
		st.known = kept
		s.seen[rel] = st
	}
}

// A model writes all the calls of a reply before it sees any result, so
// its line numbers in every call of the reply mean the file as it read
// it. A partial write that changes the line count moves every line below
// it; a later partial write of the same reply that reaches those lines
// would land on the wrong ones. replyShifts records, per file, where the
// earlier writes of the current reply (change set) moved lines.

// shift is one earlier write of the reply: lines from `from` on (in the
// numbering the model uses) moved by delta.
type shift struct{ from, delta int }

// replyShifts are the shifts of one reply's writes to one file.
type replyShifts struct {
	changeSet string
	shifts    []shift
}

// testNoShiftRule, set by a test, turns the rule off, to show that the
// fuzz test of one-reply edits catches edits landing on moved lines.
var testNoShiftRule bool

// movedBy returns how far the lines up to reach moved in this reply's
// earlier writes to rel, and ok false when none of them moved.
func (s *Session) movedBy(changeSet, rel string, reach int) (from, delta int, moved bool) {
	if testNoShiftRule || changeSet == "" {
		return 0, 0, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rs, ok := s.shifts[rel]
	if !ok || rs.changeSet != changeSet {
		return 0, 0, false
	}
	for _, sh := range rs.shifts {
		if reach >= sh.from {
			if !moved || sh.from < from {
				from = sh.from
			}
			delta += sh.delta
			moved = true
		}
	}
	return from, delta, moved
}

// noteShift records that a write of this reply moved the lines of rel
// from `from` on by delta; delta 0 moves nothing. reset (a create or a
// rewrite: the model just sent all of the text) starts over.
func (s *Session) noteShift(changeSet, rel string, from, delta int, reset bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rs := s.shifts[rel]
	if rs.changeSet != changeSet || reset {
		rs = replyShifts{changeSet: changeSet}
	}
	if delta != 0 {
		rs.shifts = append(rs.shifts, shift{from, delta})
	}
	s.shifts[rel] = rs
}

func staleShift(asked string, from, delta int) string {
	return fmt.Sprintf("lines of %s from %d on moved by %+d since you read them (an earlier write of this reply changed the line count): edit from the bottom up, or use replace", asked, from, delta)
}

// rangeSeen reports whether the model saw the lines a partial write of
// start..end addresses in a file of total lines; an insertion (end =
// start-1) needs a line next to it.
func rangeSeen(known []lineSpan, start, end, total int) bool {
	switch {
	case end >= start:
		return covers(known, start, end)
	case total == 0:
		return covers(known, 1, 0)
	}
	return (start > 1 && covers(known, start-1, start-1)) || (start <= total && covers(known, start, start))
}

// describeSeen lists the line ranges seen, merged: "1-5, 9-12".
func describeSeen(known []lineSpan) string {
	sorted := append([]lineSpan(nil), known...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].from < sorted[j].from })
	var out []string
	for i := 0; i < len(sorted); {
		a, b := sorted[i].from, sorted[i].to
		j := i + 1
		for ; j < len(sorted) && sorted[j].from <= b+1; j++ {
			b = max(b, sorted[j].to)
		}
		if b >= a {
			out = append(out, fmt.Sprintf("%d-%d", a, b))
		}
		i = j
	}
	if len(out) == 0 {
		return "none of its lines"
	}
	return "lines " + strings.Join(out, ", ")
}
