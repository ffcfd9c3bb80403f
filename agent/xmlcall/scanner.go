package xmlcall

import (
	"strings"
)

// Bounds on tokens the Scanner waits for. A tag longer than these is not a
// tag: the Scanner never buffers unbounded input while deciding.
const (
	maxOpener  = 4096 // a <tool_call ...> or <tool_response ...> opener
	maxTag     = 256  // a parameter tag or a closing tag
	maxEntity  = 12   // &#x10FFFF; and friends
	maxLegName = 128  // the name in [TOOL:name:{...}]
	maxReparse = 8    // nested re-reading of a value's remainder (see endInValue)
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
	stNameless                // after a <tool_call> opener without a name: JSON body or not
	stJSON                    // inside the JSON object of a nameless call
	stJSONEnd                 // after that object, before </tool_call>
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
	// After a closing tag that did not end the value, the raw input that
	// follows it is kept too: if no later closing tag qualifies, the value
	// ends at that one and this remainder is read again as parameters.
	rawOn   bool
	raw     strings.Builder
	reparse int // how deep such re-reading is nested

	// legacy form and JSON call bodies
	legName string
	js      jsonScan
	// jsonWhy says why a nameless call's body was not read as JSON, once
	// it was tried: the CALL_MALFORMED message gives the reason.
	jsonWhy string

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
// (inventing a result) outside a value. The reply must not be read past
// that point; the Scanner ignores everything fed after it.
//
// It turns true in the Feed that brings the opener ("<tool_response"
// followed by whitespace, '>' or '/'; a chunk that ends right after
// "<tool_response" is decided by the next byte), so a caller that checks
// it after each Feed can cancel the stream at once. This replaces a
// provider stop sequence, which would also cut a write whose value holds
// that text: inside a value (CDATA, plain text, a JSON string) it is
// content and never stops anything.
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
		s.keepRaw(chunk)
	case stCDATA:
		if s.held > 0 || strings.Contains(chunk, "]]>") {
			return false
		}
		// No terminator inside: all of it is content, except a trailing
		// "]" or "]]" that the next chunk decides (see cdata).
		keep := 0
		if n := len(chunk); n > 0 && chunk[n-1] == ']' {
			keep = 1
			if n > 1 && chunk[n-2] == ']' {
				keep = 2
			}
		}
		s.held = keep
		s.value.WriteString(chunk[:len(chunk)-keep])
		s.keepRaw(chunk)
	default:
		return false
	}
	return true
}

func (s *Scanner) keepRaw(t string) {
	if s.rawOn {
		s.raw.WriteString(t)
	}
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
	if s.st == stLegacy && s.js.depth < 0 { // complete, no ']' after it
		s.finishLegacy()
	}
	switch s.st {
	case stText, stStopped, stResponse:
	case stLegacy:
		s.fail(incompleteError(s.legName, ""))
	case stJSONEnd: // a whole JSON body, but no </tool_call>
		name, _, _ := jsonCall(s.value.String())
		s.fail(incompleteError(name, s.call.ID))
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
		st := s.st
		switch st {
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
		case stNameless:
			n = s.nameless(data, i)
		case stJSON:
			n = s.jsonBody(data, i, final)
		case stJSONEnd:
			n = s.jsonEnd(data, i, final)
		case stResponse:
			n = s.response(data, i, final)
		case stStopped:
			return len(data)
		}
		stop := n < 0 // an unfinished token starts at -n-1: wait for more
		if stop {
			n = -n - 1
		}
		if s.rawOn && (st == stValue || st == stCDATA) {
			s.raw.WriteString(data[i:n])
		}
		if stop {
			return n
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
