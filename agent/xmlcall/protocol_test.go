package xmlcall

import (
	"strings"
	"testing"
)

// TestRepeatedParamMessage checks the message the model gets for a
// parameter given twice: it names the parameter and the way out.
func TestRepeatedParamMessage(t *testing.T) {
	_, errs := Parse(`<tool_call name="write_file" id="2"><file_path>a</file_path><content>x</content><content>y</content></tool_call>`, testLookup)
	want := `tool call "write_file" (id 2): parameter content given twice; put text that holds tags in CDATA`
	if len(errs) != 1 || errs[0].Code != CodeMalformed || errs[0].Message != want {
		t.Fatalf("errors = %+v, want one %s: %s", errs, CodeMalformed, want)
	}
	if errs[0].Name != "write_file" || errs[0].ID != "2" {
		t.Errorf("error names call %s/%s, want write_file/2", errs[0].Name, errs[0].ID)
	}
}

// TestJSONCallMessages checks that a nameless call that is not the JSON
// form says why, in one line.
func TestJSONCallMessages(t *testing.T) {
	for in, want := range map[string]string{
		`<tool_call>{"name":"read_file","parameters":{}}</tool_call>`:          `needs both "name" and "arguments"`,
		`<tool_call>{"name":"","arguments":{}}</tool_call>`:                    `"name" must be a non-empty string`,
		`<tool_call>{"name":"a","arguments":5}</tool_call>`:                    `"arguments" must be a JSON object`,
		`<tool_call>{"name":"a","arguments":{"c":"</tool_call>"}}</tool_call>`: `</tool_call> inside a string`,
		`<tool_call>{"name":"a","arguments":{}} x</tool_call>`:                 `text after the object`,
		`<tool_call><file_path>a</file_path></tool_call>`:                      `without a name attribute`,
	} {
		_, errs := Parse(in, testLookup)
		if len(errs) != 1 || errs[0].Code != CodeMalformed || !strings.Contains(errs[0].Message, want) {
			t.Errorf("Parse(%q) errors = %+v, want one %s containing %q", in, errs, CodeMalformed, want)
		}
	}
}

// TestStopDecidedInTheOpenersFeed checks what the agent loop relies on to
// cancel the stream itself (no provider stop sequence): Stopped turns true
// in the very Feed that delivers a model-written <tool_response opener
// outside a value, that Feed still returns everything before it, and
// StopOffset says where the real reply ends.
func TestStopDecidedInTheOpenersFeed(t *testing.T) {
	call := `<tool_call name="read_file"><file_path>a</file_path></tool_call>`
	for _, tc := range []struct{ name, before, opener string }{
		{"after prose", "done. ", `<tool_response id="1">`},
		{"after a call", call + "\n", "<tool_response>"},
		{"after a JSON call", `<tool_call>{"name":"read_file","arguments":{"file_path":"a"}}</tool_call>`, "<tool_response\n"},
		{"inside an open call", `<tool_call name="read_file"><file_path>a</file_path>`, "<tool_response>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewScanner(testLookup)
			var evs []Event
			// The opener arrives at the end of a chunk, as a token would.
			for _, chunk := range []string{tc.before[:len(tc.before)/2], tc.before[len(tc.before)/2:] + tc.opener} {
				if s.Stopped() {
					t.Fatalf("stopped before the opener arrived")
				}
				evs = append(evs, s.Feed(chunk)...)
			}
			if !s.Stopped() {
				t.Fatalf("Stopped() = false after the Feed that brought %q", tc.opener)
			}
			if got := s.StopOffset(); got != len(tc.before) {
				t.Errorf("StopOffset = %d, want %d", got, len(tc.before))
			}
			var calls, errs int
			for _, e := range evs {
				if e.Call != nil {
					calls++
				}
				if e.Err != nil {
					errs++
				}
			}
			if tc.name == "inside an open call" {
				if calls != 0 || errs != 1 {
					t.Errorf("events = %+v, want the open call reported incomplete", evs)
				}
			} else if calls+errs != strings.Count(tc.before, "</tool_call>") {
				t.Errorf("events = %+v, want the call before the opener", evs)
			}
			if evs := s.Feed(`</tool_response>` + call); len(evs) != 0 {
				t.Errorf("events after the stop = %+v, want none", evs)
			}
		})
	}
}

// TestNoStopInsideValues checks that a <tool_response inside a value of a
// write (CDATA, plain text, a JSON string) is content: the stream goes on
// and the write arrives whole.
func TestNoStopInsideValues(t *testing.T) {
	for _, in := range []string{
		`<tool_call name="write_file"><content><![CDATA[see <tool_response id="1">]]></content></tool_call>`,
		`<tool_call name="write_file"><content>see <tool_response id="1"></content></tool_call>`,
		`<tool_call>{"name":"write_file","arguments":{"content":"see <tool_response id=\"1\">"}}</tool_call>`,
	} {
		for _, n := range []int{1, 5, len(in)} {
			got := scanChunks(in, n, testLookup, false)
			if len(got.Calls) != 1 || got.Calls[0].Args()["content"] != `see <tool_response id="1">` || len(got.Errors) != 0 {
				t.Errorf("%q in %d-byte chunks: calls %+v errors %+v, want the whole write", in, n, got.Calls, got.Errors)
			}
		}
		s := NewScanner(testLookup)
		s.Feed(in)
		if s.Stopped() || s.StopOffset() != -1 {
			t.Errorf("%q: Stopped() = %v, StopOffset = %d, want no stop", in, s.Stopped(), s.StopOffset())
		}
	}
}

// TestStopInRereadRemainder: a closing tag followed by text does not end
// its value, but when no later one qualifies the value ends there and the
// rest is read again as parameters. A <tool_response in that rest is
// outside a value after all: the call is incomplete and the reply stops
// where it began (this panicked once, in the loop's mode).
func TestStopInRereadRemainder(t *testing.T) {
	reply := "ab <tool_call name=\"run\"><a>0</a> x <tool_response id=\"1\"> </tool_call> more <tool_call name=\"run\"/>"
	want := strings.Index(reply, "<tool_response")
	for _, n := range []int{1, 4, len(reply)} {
		s := NewScanner(testLookup)
		var got []Event
		for i := 0; i < len(reply); i += n {
			got = append(got, s.Feed(reply[i:min(i+n, len(reply))])...)
		}
		got = append(got, s.Close()...)
		var codes []string
		for _, e := range got {
			if e.Call != nil {
				t.Errorf("%d-byte chunks: call %+v after the stop", n, e.Call)
			}
			if e.Err != nil {
				codes = append(codes, e.Err.Code)
			}
		}
		if len(codes) != 1 || codes[0] != CodeIncomplete {
			t.Errorf("%d-byte chunks: errors %v, want one %s", n, codes, CodeIncomplete)
		}
		if !s.Stopped() || s.StopOffset() != want {
			t.Errorf("%d-byte chunks: Stopped %v, StopOffset %d, want true, %d", n, s.Stopped(), s.StopOffset(), want)
		}
	}
	// Parse skips the response and reads on.
	calls, errs := Parse(reply+"</tool_response> <tool_call name=\"b\"/>", testLookup)
	if len(calls) != 1 || calls[0].Name != "b" || len(errs) != 1 {
		t.Errorf("Parse: calls %+v errors %+v, want b and one error", calls, errs)
	}
}
