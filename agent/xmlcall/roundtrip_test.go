package xmlcall

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// randomValue builds a value from pieces models and files really hold.
func randomValue(r *rand.Rand) string {
	pieces := []string{"]]>", "]]", "]", "<", ">", "&", "&amp;", "&lt;", "\r\n", "\n", " ", "\t",
		"</content>", "</tool_call>", "<tool_call name=\"x\">", "<![CDATA[", "[TOOL:a:{}]",
		"é", "👨‍👩‍👧", "日本", "\uFEFF", "a", "if (a < b && c) {}", "\"", "'", ""}
	var b strings.Builder
	for range r.IntN(12) {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}

// TestRoundTrip renders random calls as a model should write them and
// parses them back: the values must come back exactly.
func TestRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	names := []string{"file_path", "content", "operation_type", "start_line"}
	for i := range 3000 {
		c := Call{Name: "write_file", ID: "c1"}
		for _, n := range names[:1+r.IntN(len(names))] {
			c.Params = append(c.Params, Param{Name: n, Value: randomValue(r)})
		}
		text := RenderCall(c)
		for _, lookup := range []ParamLookup{testLookup, nil} {
			calls, errs := Parse("prose "+text+" more", lookup)
			if len(errs) != 0 || len(calls) != 1 || !reflect.DeepEqual(calls[0], c) {
				t.Fatalf("case %d: Parse(RenderCall(%q)) = %+v, %v\nrendered: %s", i, c.Params, calls, errs, text)
			}
		}
	}
}
