package xmlcall

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzScanner checks, for any input: no panic; the same calls, errors and
// prose however the input is chunked; and no call ever comes from inside
// CDATA (the input wrapped as a CDATA value is one call holding exactly
// the input).
func FuzzScanner(f *testing.F) {
	for _, in := range streamInputs(f) {
		f.Add(in, uint8(3))
	}
	f.Fuzz(func(t *testing.T, in string, n uint8) {
		whole := scanChunks(in, 0, testLookup, true).json()
		for _, size := range []int{1, int(n%64) + 1} {
			if got := scanChunks(in, size, testLookup, true).json(); got != whole {
				t.Fatalf("%d-byte chunks differ from whole:\n got %s\nwant %s", size, got, whole)
			}
		}
		if loop := scanChunks(in, int(n%16)+1, testLookup, false).json(); loop != scanChunks(in, 0, testLookup, false).json() {
			t.Fatalf("loop mode: chunked differs from whole")
		}

		wrapped := `<tool_call name="write_file"><content><![CDATA[` +
			strings.ReplaceAll(in, "]]>", "]]]]><![CDATA[>") + `]]></content></tool_call>`
		got := scanChunks(wrapped, int(n%32)+1, testLookup, false)
		if len(got.Calls) != 1 || len(got.Errors) != 0 {
			t.Fatalf("CDATA value produced %d calls and errors %v", len(got.Calls), got.Errors)
		}
		if v := got.Calls[0].Args()["content"]; v != in {
			t.Fatalf("CDATA value = %q, want %q", v, in)
		}

		// The same text as a JSON string of the JSON form is one call
		// holding it exactly, unless it holds </tool_call (which ends the
		// call there) or is not UTF-8 (JSON cannot carry it).
		if strings.Contains(in, "</tool_call") || !utf8.ValidString(in) {
			return
		}
		var body strings.Builder
		enc := json.NewEncoder(&body)
		enc.SetEscapeHTML(false) // keep '<' raw: it must be content inside a string
		if err := enc.Encode(map[string]any{"name": "write_file", "arguments": map[string]string{"content": in}}); err != nil {
			t.Fatal(err)
		}
		got = scanChunks("<tool_call>"+body.String()+"</tool_call>", int(n%32)+1, testLookup, false)
		if len(got.Calls) != 1 || len(got.Errors) != 0 {
			t.Fatalf("JSON string value produced %d calls and errors %v", len(got.Calls), got.Errors)
		}
		if v := got.Calls[0].Args()["content"]; v != in {
			t.Fatalf("JSON string value = %q, want %q", v, in)
		}
	})
}
