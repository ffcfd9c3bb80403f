package xmlcall

import (
	"strings"
	"testing"
)

// streamInputs are the inputs the equivalence test feeds in pieces: every
// table case, the shared corpus, and inputs built to split tokens.
func streamInputs(t testing.TB) []string {
	var ins []string
	for _, tc := range scannerCases {
		ins = append(ins, tc.in)
	}
	for _, c := range loadCorpus(t) {
		ins = append(ins, c.Input)
	}
	return append(ins,
		"a]]]b<![CDATA[x]]]]]>",
		"<tool_call name=\"w\"><c><![CDATA[x]]]]><![CDATA[>]]]]></c></tool_call>",
		"<tool_call name=\"w\"><c>&am&amp;&#x4;&#1114111;&#1114112;</c></tool_call>",
		strings.Repeat("<tool_call name=\"r\"><a>x</a></tool_call>", 20),
		"[TOOL:a:{\"s\":\"\\\\\\\"}\"}]  [TOOL:b:{}]",
		"<tool_call id=\"3\">  \n {\"name\":\"w\",\"arguments\":{\"c\":\"<</tool_cal \\\"}]\\\\\",\"d\":[{}]}} \n</tool_call >",
		"<tool_call>{\"name\":\"w\",\"arguments\":\"{\\\"c\\\":1}\"}</tool_call><tool_call> <c>1</c><c>2</c></tool_call>",
		"<tool_call name=\"write_file\"><content>a</content >\n<content\n/></tool_call><tool_response",
	)
}

// TestStreamingEquivalence feeds each input in 1-byte, 7-byte and whole
// chunks: the calls, errors and prose must be the same.
func TestStreamingEquivalence(t *testing.T) {
	for _, in := range streamInputs(t) {
		for _, cont := range []bool{true, false} {
			whole := scanChunks(in, 0, testLookup, cont).json()
			for _, n := range []int{1, 7} {
				if got := scanChunks(in, n, testLookup, cont).json(); got != whole {
					t.Errorf("input %q in %d-byte chunks (continue=%v):\n got %s\nwant %s", shorten(in, 120), n, cont, shorten(got, 400), shorten(whole, 400))
				}
			}
		}
	}
}
