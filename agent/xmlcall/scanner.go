package xmlcall

import (
	"strconv"
	"strings"
)

// Bounds on tokens the Scanner waits for. A tag longer than these is not a
// tag: the Scanner never buffers unbounded input while deciding.
const (
	maxOpener  = 4096 // a <tool_call ...> or <tool_response ...> opener
	maxTag     = 256  // a parameter tag or a closing tag
	maxEntity  = 12   // &#x10FFFF; and friends
	maxLegName = 128  // the name in [TOOL:name:{...}]
)

type state int

const (
	stText       state = iota // prose outside calls
	stBetween                 // inside a call, between parameters
	stValue                   // inside a parameter value, outside CDATA
	stCDATA                   // inside CDATA within a value
	stJunkCDATA               // inside CDATA between parameters (ignored)
	stAfterClose              // after a candidate </param>, deciding whether it ends the value
	stLegacy                  // inside the JSON of [TOOL:name:{...}]
	stResponse                // inside a model-written <tool_response> (discarded)
	stStopped                 // after a model-written <tool_response>: all input ignored
)

// Scanner finds tool calls in a model's reply as it streams in. Feed it
// chunks of any size; it returns, in reply order, the prose between calls,
// each call the moment its </tool_call> arrives, and broken calls. Close it
// at the end of the stream to learn about calls that never finished.
//
// The work per byte is the same however the reply is chunked: the Scanner
// never re-reads input it has consumed, and it holds back at most one
// unfinished token (bounded by maxOpener) between Feeds. Memory is bounded
// by the largest single call, not by the reply.
type Scanner struct {
	lookup ParamLookup

	// IDPrefix is put before the ids the Scanner assigns to calls that
	// have none, so that they stay unique across a conversation (the
	// agent uses one prefix per reply). Set it before the first Feed.
	IDPrefix string
	// ContinueAfterResponse makes the Scanner skip a model-written
	// <tool_response> block and go on reading, instead of stopping there.
	// The agent loop leaves it false (an invented result ends the reply);
	// `agent parse` sets it to list every call of a reply.
	ContinueAfterResponse bool

	st    state
	carry string  // unconsumed input held back until it can be decided
	out   []Event // events of the current Feed, reused

	// the call being read
	call      *Call
	known     bool     // the tool is registered
	params    []string // its parameter names
	param     string   // the parameter being read
	value     valueBuf
	tail      strings.Builder // a candidate closing tag and the spaces after it, not yet in value
	mark      int             // value length before the candidate closing tag
	lastMark  int             // fallback end: last unqualified candidate, or -1
	afterJunk state

	// legacy form
	legName  string
	legDepth int
	legStr   bool
	legEsc   bool

	ids     map[string]bool
	autoSeq int
	stopped bool
	held    int // "]" bytes at the end of a chunk inside CDATA, not yet decided
	stopAt  int // offset in the reply of the model-written <tool_response
	base    int // offset in the reply of the data being scanned
	fed     int // bytes fed so far
}

// NewScanner returns a Scanner that asks lookup for the parameter names of
// each called tool. lookup may be nil: every tool is then unknown.
func NewScanner(lookup ParamLookup) *Scanner {
	return &Scanner{lookup: lookup, lastMark: -1}
}

// Stopped reports whether the model began writing its own <tool_response>
// (inventing a result). The reply must not be read past that point; the
// Scanner ignores everything fed after it.
func (s *Scanner) Stopped() bool { return s.stopped }

// StopOffset is the byte offset in the reply (counting everything fed)
// where the first model-written <tool_response begins, or -1 when there is
// none. The reply's text up to that offset is what the model really said.
func (s *Scanner) StopOffset() int {
	if !s.stopped {
		return -1
	}
	return s.stopAt
}

// Feed consumes the next chunk of the reply and returns what it completed.
// The returned slice is valid until the next call to Feed or Close.
func (s *Scanner) Feed(chunk string) []Event {
	s.out = s.out[:0]
	if s.st == stStopped {
		return s.out
	}
	s.base = s.fed - len(s.carry)
	s.fed += len(chunk)
	if s.carry == "" && s.fastPath(chunk) {
		return s.out
	}
	data := chunk
	if s.carry != "" {
		data = s.carry + chunk
		s.carry = ""
	}
	i := s.run(data, false)
	if i < len(data) {
		s.carry = data[i:]
	}
	return s.out
}

// fastPath consumes a chunk that holds nothing the current state must
// look at (the common case with small chunks), skipping the state
// machine's dispatch. It reports whether it did.
func (s *Scanner) fastPath(chunk string) bool {
	switch s.st {
	case stText:
		if indexSet(chunk, &textStops) >= 0 {
			return false
		}
		s.emitText(chunk)
	case stValue:
		if indexSet(chunk, &valueStops) >= 0 {
			return false
		}
		s.value.WriteString(chunk)
	case stCDATA:
		if s.held > 0 || strings.Contains(chunk, "]]>") {
			return false
		}
		s.cdata(chunk, 0, false) // consumes it all: no terminator inside
	default:
		return false
	}
	return true
}

// Close ends the stream. It flushes held-back prose and reports a call
// that never reached </tool_call> as CALL_INCOMPLETE: such a call is never
// returned as a Call, so a truncated write cannot touch a file.
func (s *Scanner) Close() []Event {
	s.out = s.out[:0]
	data := s.carry
	s.base = s.fed - len(data)
	s.carry = ""
	if s.st != stStopped {
		s.run(data, true)
	}
	if s.st == stLegacy && s.legDepth < 0 { // complete, no ']' after it
		s.finishLegacy()
	}
	switch s.st {
	case stText, stStopped, stResponse:
	case stLegacy:
		s.fail(incompleteError(s.legName, ""))
	default:
		s.fail(incompleteError(s.call.Name, s.call.ID))
	}
	s.resetCall()
	if s.st != stStopped {
		s.st = stText
	}
	return s.out
}

// Parse scans a whole reply at once. It returns the calls in order of
// appearance and the broken ones. Model-written <tool_response> blocks are
// skipped, not obeyed: Parse lists every call of the reply.
func Parse(reply string, lookup ParamLookup) ([]Call, []*Error) {
	s := NewScanner(lookup)
	s.ContinueAfterResponse = true
	var calls []Call
	var errs []*Error
	collect := func(evs []Event) {
		for _, e := range evs {
			if e.Call != nil {
				calls = append(calls, *e.Call)
			}
			if e.Err != nil {
				errs = append(errs, e.Err)
			}
		}
	}
	collect(s.Feed(reply))
	collect(s.Close())
	return calls, errs
}

// run consumes data from the start and returns how far it got; the rest
// is an unfinished token to be completed by the next Feed. At end of
// stream (final) every token is decided with what there is.
func (s *Scanner) run(data string, final bool) int {
	i := 0
	for i < len(data) {
		var n int
		switch s.st {
		case stText:
			n = s.text(data, i, final)
		case stBetween:
			n = s.between(data, i, final)
		case stValue:
			n = s.valueText(data, i, final)
		case stCDATA, stJunkCDATA:
			n = s.cdata(data, i, final)
		case stAfterClose:
			n = s.afterClose(data, i, final)
		case stLegacy:
			n = s.legacy(data, i, final)
		case stResponse:
			n = s.response(data, i, final)
		case stStopped:
			return len(data)
		}
		if n < 0 { // an unfinished token starts at -n-1: wait for more
			return -n - 1
		}
		i = n
	}
	return i
}

// emitText adds prose, merging it with the previous event when that is
// prose too, so one Feed yields at most one text event per run of prose.
func (s *Scanner) emitText(t string) {
	if t == "" {
		return
	}
	if k := len(s.out) - 1; k >= 0 && s.out[k].Call == nil && s.out[k].Err == nil {
		s.out[k].Text += t
		return
	}
	s.out = append(s.out, Event{Text: t})
}

func (s *Scanner) fail(e *Error) {
	s.out = append(s.out, Event{Err: e})
}

// text scans prose for the start of a call, a legacy call or a
// model-written response. The run of prose is emitted as one substring of
// data, so a long reply fed whole is never copied.
func (s *Scanner) text(data string, i int, final bool) int {
	start := i
	for {
		j := indexSet(data[i:], &textStops)
		if j < 0 {
			s.emitText(data[start:])
			return len(data)
		}
		i += j
		rest := data[i:]
		if rest[0] == '[' {
			name, brace, m := matchLegacy(rest, final)
			if m == matchNo {
				i++ // a literal '[' in prose
				continue
			}
			s.emitText(data[start:i])
			if m == matchMore {
				return wait(i)
			}
			s.startLegacy(name)
			return i + brace
		}
		m := matchWord(rest, "<tool_call", final)
		isCall := m != matchNo
		if !isCall {
			m = matchWord(rest, "<tool_response", final)
		}
		if m == matchNo {
			i++ // a literal '<' in prose
			continue
		}
		s.emitText(data[start:i])
		switch {
		case m == matchMore:
			return wait(i)
		case isCall:
			return s.opener(data, i, final)
		default:
			return s.startResponse(data, i)
		}
	}
}

// matchResult says whether a keyword is at the start of the input.
type matchResult int

const (
	matchNo matchResult = iota
	matchYes
	matchMore // the input ends inside what could still be the keyword
)

// matchWord reports whether s starts with word followed by a delimiter
// (whitespace, '>', or '/'), so that <tool_calls> is not <tool_call.
func matchWord(s, word string, final bool) matchResult {
	if len(s) < len(word) {
		if !final && strings.HasPrefix(word, s) {
			return matchMore
		}
		return matchNo
	}
	if s[:len(word)] != word {
		return matchNo
	}
	if len(s) == len(word) {
		if final {
			return matchYes // a cut-off opener is still an opener
		}
		return matchMore
	}
	switch s[len(word)] {
	case ' ', '\t', '\r', '\n', '>', '/':
		return matchYes
	}
	return matchNo
}

// opener reads a <tool_call ...> opener at data[i:] and starts the call.
func (s *Scanner) opener(data string, i int, final bool) int {
	tag, ok := parseTag(data[i:], maxOpener)
	if !ok {
		if tag.needMore && !final {
			return wait(i)
		}
		if tag.needMore { // the stream ended inside the opener
			s.call = &Call{Name: tag.attr("name")}
			s.st = stBetween
			return len(data)
		}
		s.fail(&Error{Code: CodeMalformed,
			Message: `unreadable <tool_call> opener: write <tool_call name="TOOL" id="N"> with quoted attribute values`})
		return i + len("<tool_call")
	}
	s.call = &Call{Name: strings.TrimSpace(tag.attr("name")), ID: strings.TrimSpace(tag.attr("id"))}
	if s.call.Name != "" && s.lookup != nil {
		s.params, s.known = s.lookup(s.call.Name)
	}
	s.assignID()
	if tag.selfClosing {
		s.finishCall()
		return i + tag.end
	}
	s.st = stBetween
	return i + tag.end
}

func (s *Scanner) assignID() {
	if s.ids == nil {
		s.ids = make(map[string]bool)
	}
	if s.call.ID == "" {
		for {
			s.autoSeq++
			id := s.IDPrefix + "auto-" + strconv.Itoa(s.autoSeq)
			if !s.ids[id] {
				s.call.ID = id
				break
			}
		}
	}
	s.ids[s.call.ID] = true
}

// finishCall emits the call (or CALL_MALFORMED when it has no name) and
// returns to prose.
func (s *Scanner) finishCall() {
	c := s.call
	if c.Name == "" {
		s.fail(&Error{Code: CodeMalformed, ID: c.ID,
			Message: `tool call without a name attribute: write <tool_call name="TOOL" id="N"> with one child element per parameter`})
	} else {
		s.out = append(s.out, Event{Call: c})
	}
	s.resetCall()
	s.st = stText
}

func (s *Scanner) resetCall() {
	s.held = 0
	s.call = nil
	s.known = false
	s.params = nil
	s.param = ""
	s.value.Reset()
	s.tail.Reset()
	s.lastMark = -1
}

// between reads inside a call where a parameter may open or the call end.
func (s *Scanner) between(data string, i int, final bool) int {
	j := strings.IndexByte(data[i:], '<')
	if j < 0 {
		return len(data) // text between parameters is ignored
	}
	i += j
	rest := data[i:]
	if len(rest) < 2 {
		if final {
			return len(data)
		}
		return wait(i)
	}
	switch rest[1] {
	case '/':
		if n, m := matchClose(rest, "tool_call", final); m == matchYes {
			s.finishCall()
			return i + n
		} else if m == matchMore {
			return wait(i)
		}
		// a stray closing tag (</name>): skip it whole; anything else
		// that starts with "</" is skipped two bytes at a time, so a '>'
		// far ahead can never swallow the real </tool_call>.
		n, m := strayClose(rest, final)
		if m == matchMore {
			return wait(i)
		}
		return i + n
	case '!':
		if strings.HasPrefix(rest, "<![CDATA[") {
			s.afterJunk = stBetween
			s.st = stJunkCDATA
			return i + len("<![CDATA[")
		}
		if !final && strings.HasPrefix("<![CDATA[", rest) {
			return wait(i)
		}
		return i + 2
	}
	for _, w := range [...]string{"<tool_call", "<tool_response"} {
		switch matchWord(rest, w, final) {
		case matchYes:
			// The model opened something new before closing this call.
			s.fail(incompleteError(s.call.Name, s.call.ID))
			s.resetCall()
			s.st = stText
			return i
		case matchMore:
			return wait(i)
		}
	}
	tag, ok := parseTag(rest, maxTag)
	if !ok {
		if tag.needMore && !final {
			return wait(i)
		}
		return i + 1
	}
	s.param = tag.name
	if tag.selfClosing {
		s.call.Params = append(s.call.Params, Param{Name: tag.name})
		return i + tag.end
	}
	s.value.Reset()
	s.lastMark = -1
	s.st = stValue
	return i + tag.end
}

// valueText reads a parameter value outside CDATA: entities are decoded,
// a stray '<' or '&' is kept literally.
func (s *Scanner) valueText(data string, i int, final bool) int {
	rest := data[i:]
	j := indexSet(rest, &valueStops)
	if j < 0 {
		s.value.WriteString(rest)
		return len(data)
	}
	s.value.WriteString(rest[:j])
	i += j
	rest = data[i:]
	if rest[0] == '&' {
		r, n, m := decodeEntity(rest, final)
		switch m {
		case matchMore:
			return wait(i)
		case matchYes:
			s.value.WriteString(r)
			return i + n
		}
		s.value.WriteByte('&')
		return i + 1
	}
	if strings.HasPrefix(rest, "<![CDATA[") {
		s.st = stCDATA
		return i + len("<![CDATA[")
	}
	if !final && len(rest) < len("<![CDATA[") && strings.HasPrefix("<![CDATA[", rest) {
		return wait(i)
	}
	if n, m := matchClose(rest, s.param, final); m == matchYes {
		// Keep the tag aside until it is known to end the value or not:
		// a value that ends here then needs no copy at all.
		s.mark = s.value.Len()
		s.tail.Reset()
		s.tail.WriteString(rest[:n])
		s.st = stAfterClose
		return i + n
	} else if m == matchMore {
		return wait(i)
	}
	if n, m := matchClose(rest, "tool_call", final); m == matchYes {
		return s.endInValue(i + n)
	} else if m == matchMore {
		return wait(i)
	}
	s.value.WriteByte('<')
	return i + 1
}

// endInValue handles </tool_call> met inside a value: the value ends at the
// last closing tag of its own name, or the call is malformed.
func (s *Scanner) endInValue(next int) int {
	if s.lastMark < 0 {
		s.fail(&Error{Code: CodeMalformed, Name: s.call.Name, ID: s.call.ID,
			Message: "tool call " + strconv.Quote(s.call.Name) + " (id " + s.call.ID + "): parameter <" + s.param + "> is not closed before </tool_call>; close every parameter tag"})
		s.resetCall()
		s.st = stText
		return next
	}
	s.endValue(s.lastMark)
	s.finishCall()
	return next
}

// endValue stores the current parameter with its value cut at n bytes.
func (s *Scanner) endValue(n int) {
	v := s.value.String()[:n]
	s.call.Params = append(s.call.Params, Param{Name: s.param, Value: v})
	s.value.Reset()
	s.tail.Reset()
	s.param = ""
	s.lastMark = -1
}

// cdata copies CDATA content verbatim up to "]]>".
func (s *Scanner) cdata(data string, i int, final bool) int {
	keepValue := s.st == stCDATA
	// Brackets held back by the previous chunk: they may be the start of
	// the "]]>" that ends the section, or content.
	for s.held > 0 && i < len(data) {
		switch c := data[i]; {
		case c == '>' && s.held == 2:
			s.held = 0
			s.endCDATA()
			return i + 1
		case c == ']' && s.held == 2:
			if keepValue {
				s.value.WriteString("]") // "]]]": the first one is content
			}
		case c == ']':
			s.held++
		default:
			if keepValue {
				s.value.WriteString("]]"[:s.held])
			}
			s.held = 0
			continue
		}
		i++
	}
	if i == len(data) {
		if final {
			s.held = 0
		}
		return i
	}
	rest := data[i:]
	j := strings.Index(rest, "]]>")
	if j < 0 {
		// Hold back a trailing "]" or "]]" that may start the terminator,
		// without copying the input: the next chunk decides.
		if !final {
			if strings.HasSuffix(rest, "]]") {
				s.held = 2
			} else if strings.HasSuffix(rest, "]") {
				s.held = 1
			}
		}
		if keepValue {
			s.value.WriteString(rest[:len(rest)-s.held])
		}
		return len(data)
	}
	if keepValue {
		s.value.WriteString(rest[:j])
	}
	s.endCDATA()
	return i + j + 3
}

// endCDATA returns from a CDATA section to the state it was opened in.
func (s *Scanner) endCDATA() {
	if s.st == stCDATA {
		s.st = stValue
	} else {
		s.st = s.afterJunk
	}
}

// afterClose decides whether the closing tag just read ends the value: it
// does when, after optional whitespace, </tool_call> or the opening tag of
// another parameter of the tool follows (any tag, for an unknown tool).
func (s *Scanner) afterClose(data string, i int, final bool) int {
	rest := data[i:]
	k := 0
	for k < len(rest) && isSpace(rest[k]) {
		k++
	}
	s.tail.WriteString(rest[:k])
	i += k
	rest = rest[k:]
	if rest == "" {
		if final {
			s.notTheEnd()
		}
		return len(data)
	}
	if rest[0] != '<' {
		s.notTheEnd()
		return i
	}
	if _, m := matchClose(rest, "tool_call", final); m == matchYes {
		s.endValue(s.mark)
		s.st = stBetween
		return i
	} else if m == matchMore {
		return wait(i)
	}
	for _, w := range [...]string{"<tool_call", "<tool_response"} {
		switch matchWord(rest, w, final) {
		case matchYes:
			s.endValue(s.mark)
			s.st = stBetween
			return i
		case matchMore:
			return wait(i)
		}
	}
	name, m := openTagName(rest, final)
	if m == matchMore {
		return wait(i)
	}
	if m == matchYes && s.siblingParam(name) {
		s.endValue(s.mark)
		s.st = stBetween
		return i
	}
	s.notTheEnd()
	return i
}

// notTheEnd records that the candidate closing tag did not end the value:
// it is content after all (and the fallback end, should no later one
// qualify).
func (s *Scanner) notTheEnd() {
	s.lastMark = s.mark
	s.value.WriteString(s.tail.String())
	s.tail.Reset()
	s.st = stValue
}

// siblingParam reports whether an opening tag called name ends the current
// value: another parameter of a known tool, or any tag for an unknown one.
func (s *Scanner) siblingParam(name string) bool {
	if !s.known {
		return true
	}
	if name == s.param {
		return false
	}
	for _, p := range s.params {
		if p == name {
			return true
		}
	}
	return false
}

// startResponse handles a model-written <tool_response>: the reply stops
// there, or (ContinueAfterResponse) the block is skipped unread.
func (s *Scanner) startResponse(data string, i int) int {
	if !s.stopped {
		s.stopAt = s.base + i
	}
	s.stopped = true
	if !s.ContinueAfterResponse {
		s.st = stStopped
		return len(data)
	}
	s.st = stResponse
	return i + len("<tool_response")
}

func (s *Scanner) response(data string, i int, final bool) int {
	for {
		j := strings.Index(data[i:], "</tool_response")
		if j < 0 {
			keep := len("</tool_response") - 1
			if final || len(data)-i <= keep {
				if final {
					return len(data)
				}
				return wait(i)
			}
			return len(data) - keep
		}
		i += j
		n, m := matchClose(data[i:], "tool_response", final)
		switch m {
		case matchYes:
			s.st = stText
			return i + n
		case matchMore:
			return wait(i)
		}
		i++
	}
}

// Byte sets the scanner stops at. A table lookup per byte beats
// strings.IndexAny, which builds its set on every call: with small chunks
// that setup dominated.
var (
	textStops  = byteSet("<[")
	valueStops = byteSet("<&")
)

func byteSet(chars string) (set [256]bool) {
	for i := range len(chars) {
		set[chars[i]] = true
	}
	return set
}

// indexSet returns the index of the first byte of s in set, or -1.
func indexSet(s string, set *[256]bool) int {
	for i := 0; i < len(s); i++ {
		if set[s[i]] {
			return i
		}
	}
	return -1
}

// wait tells run that an unfinished token starts at i: the input from
// there is held back until the next Feed.
func wait(i int) int { return -i - 1 }

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r'
}
