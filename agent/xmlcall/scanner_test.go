package xmlcall

import (
	"reflect"
	"strings"
	"testing"
)

type wantCall struct {
	name, id string // id "*" means assigned by the scanner
	params   []Param
}

func p(kv ...string) []Param {
	var ps []Param
	for i := 0; i+1 < len(kv); i += 2 {
		ps = append(ps, Param{Name: kv[i], Value: kv[i+1]})
	}
	return ps
}

var scannerCases = []struct {
	name   string
	in     string
	calls  []wantCall
	errs   []string // error codes in order
	text   *string  // prose expected, when the case is about prose
	noCont bool     // run with ContinueAfterResponse=false (the loop's mode)
}{
	{name: "plain prose", in: "Hello <b>world</b> & [link](x) a<b", text: ptr("Hello <b>world</b> & [link](x) a<b")},
	{name: "simple call with prose around",
		in:    "Before\n<tool_call name=\"read_file\" id=\"1\"><file_path>README.md</file_path></tool_call>\nAfter",
		calls: []wantCall{{"read_file", "1", p("file_path", "README.md")}}, text: ptr("Before\n\nAfter")},
	{name: "single quotes, attribute order, spaces",
		in:    `<tool_call  id = '7'   name='read_file' ><file_path>a.go</file_path></tool_call >`,
		calls: []wantCall{{"read_file", "7", p("file_path", "a.go")}}},
	{name: "closing tag with newline before >", in: "<tool_call name=\"x\"><a>1</a></tool_call\n>",
		calls: []wantCall{{"x", "*", p("a", "1")}}},
	{name: "self-closing call", in: `<tool_call name="list_tools" id="9"/>`, calls: []wantCall{{"list_tools", "9", nil}}},
	{name: "self-closing and empty params",
		in:    `<tool_call name="read_file"><file_path>x</file_path><start_line/><end_line></end_line></tool_call>`,
		calls: []wantCall{{"read_file", "*", p("file_path", "x", "start_line", "", "end_line", "")}}},
	{name: "cdata verbatim", in: "<tool_call name=\"write_file\"><content><![CDATA[a &lt; b <x> & ]]></content></tool_call>",
		calls: []wantCall{{"write_file", "*", p("content", "a &lt; b <x> & ")}}},
	{name: "several cdata sections concatenate",
		in:    "<tool_call name=\"write_file\"><content><![CDATA[a]]]]><![CDATA[>b]]></content></tool_call>",
		calls: []wantCall{{"write_file", "*", p("content", "a]]>b")}}},
	{name: "cdata mixed with text", in: "<tool_call name=\"write_file\"><content>x &amp; <![CDATA[<y>]]> z</content></tool_call>",
		calls: []wantCall{{"write_file", "*", p("content", "x & <y> z")}}},
	{name: "entities decoded once", in: "<tool_call name=\"w\"><v>&lt;&gt;&amp;&quot;&apos;&#60;&#x3C;&#X3c;&amp;lt;</v></tool_call>",
		calls: []wantCall{{"w", "*", p("v", `<>&"'<<<&lt;`)}}},
	{name: "invalid entities stay literal", in: "<tool_call name=\"w\"><v>a && b &nbsp; &#0; &#xD800; &#zz; & x;</v></tool_call>",
		calls: []wantCall{{"w", "*", p("v", "a && b &nbsp; &#0; &#xD800; &#zz; & x;")}}},
	{name: "raw less-than in code", in: "<tool_call name=\"write_file\"><content>if (a < b && c > d) { x <<= 1; }</content></tool_call>",
		calls: []wantCall{{"write_file", "*", p("content", "if (a < b && c > d) { x <<= 1; }")}}},
	{name: "own closing tag inside content (known tool)",
		in:    "<tool_call name=\"write_file\"><file_path>a.md</file_path><content>use </content> to end\nmore</content></tool_call>",
		calls: []wantCall{{"write_file", "*", p("file_path", "a.md", "content", "use </content> to end\nmore")}}},
	{name: "closing tag followed by undefined tag does not end value (known tool)",
		in:    "<tool_call name=\"write_file\"><content>a</content><b>x</b> c</content></tool_call>",
		calls: []wantCall{{"write_file", "*", p("content", "a</content><b>x</b> c")}}},
	{name: "closing tag followed by sibling param ends value",
		in:    "<tool_call name=\"write_file\"><content>a</content>\n  <file_path>f</file_path></tool_call>",
		calls: []wantCall{{"write_file", "*", p("content", "a", "file_path", "f")}}},
	{name: "unknown tool: any opening tag ends the value",
		in:    "<tool_call name=\"run\"><a>1</a><b>2</b></tool_call>",
		calls: []wantCall{{"run", "*", p("a", "1", "b", "2")}}},
	{name: "later value mentions earlier closing tag",
		in:    "<tool_call name=\"write_file\"><file_path>a</file_path><content>write </file_path> here</content></tool_call>",
		calls: []wantCall{{"write_file", "*", p("file_path", "a", "content", "write </file_path> here")}}},
	{name: "fallback to last closing tag before </tool_call>",
		in:    "<tool_call name=\"write_file\"><content>x</content> y </content> trailing</tool_call>",
		calls: []wantCall{{"write_file", "*", p("content", "x</content> y ")}}},
	{name: "undefined parameter after a defined one is still read (known tool)",
		in:    "<tool_call name=\"read_file\"><file_path>a.go</file_path>\n<limit>10</limit></tool_call>",
		calls: []wantCall{{"read_file", "*", p("file_path", "a.go", "limit", "10")}}},
	{name: "after the fallback end, the rest is read as parameters",
		in:    "<tool_call name=\"write_file\"><content>x &amp; y</content> <b>1 &lt; 2</b><c><![CDATA[<z>]]></c></tool_call>",
		calls: []wantCall{{"write_file", "*", p("content", "x & y", "b", "1 < 2", "c", "<z>")}}},
	{name: "parameter never closed is malformed", in: "<tool_call name=\"read_file\"><file_path>a</tool_call> after",
		errs: []string{CodeMalformed}, text: ptr(" after")},
	{name: "no name is malformed", in: "<tool_call><function=x><parameter=p>v</parameter></function></tool_call>ok",
		errs: []string{CodeMalformed}, text: ptr("ok")},
	{name: "truncated inside value", in: "text <tool_call name=\"read_file\" id=\"1\"><file_path>src/ma",
		errs: []string{CodeIncomplete}, text: ptr("text ")},
	{name: "truncated inside opener", in: "<tool_call name=\"read_f", errs: []string{CodeIncomplete}},
	{name: "truncated after last param", in: "<tool_call name=\"x\"><a>1</a>\n", errs: []string{CodeIncomplete}},
	{name: "truncated inside cdata", in: "<tool_call name=\"write_file\"><content><![CDATA[abc", errs: []string{CodeIncomplete}},
	{name: "new call before closing the previous",
		in:    "<tool_call name=\"a\"><x>1</x>\n<tool_call name=\"b\"><y>2</y></tool_call>",
		calls: []wantCall{{"b", "*", p("y", "2")}}, errs: []string{CodeIncomplete}},
	{name: "tool_call opener inside a value is content",
		in:    "<tool_call name=\"write_file\"><content>see <tool_call name=\"x\"> here</content></tool_call>",
		calls: []wantCall{{"write_file", "*", p("content", "see <tool_call name=\"x\"> here")}}},
	{name: "call inside cdata is content",
		in:    "<tool_call name=\"write_file\"><content><![CDATA[<tool_call name=\"x\"><a>1</a></tool_call>]]></content></tool_call>",
		calls: []wantCall{{"write_file", "*", p("content", "<tool_call name=\"x\"><a>1</a></tool_call>")}}},
	{name: "fenced call", in: "```xml\n<tool_call name=\"read_file\"><file_path>a</file_path></tool_call>\n```",
		calls: []wantCall{{"read_file", "*", p("file_path", "a")}}, text: ptr("```xml\n\n```")},
	{name: "call inside think", in: "<think>need it <tool_call name=\"read_file\"><file_path>a</file_path></tool_call></think>",
		calls: []wantCall{{"read_file", "*", p("file_path", "a")}}},
	{name: "tool_calls is not tool_call", in: "<tool_calls> and <tool_callx name=\"a\"/>", text: ptr("<tool_calls> and <tool_callx name=\"a\"/>")},
	{name: "legacy form", in: `Reading [TOOL:read_file:{"file_path":"README.md","start_line":3,"all":true,"x":null}] now`,
		calls: []wantCall{{"read_file", "*", p("file_path", "README.md", "start_line", "3", "all", "true", "x", "null")}}, text: ptr("Reading  now")},
	{name: "legacy with brackets and braces in strings", in: `[TOOL:w:{"c":"a]}\"[TOOL:x:{}]\\"}]`,
		calls: []wantCall{{"w", "*", p("c", `a]}"[TOOL:x:{}]\`)}}},
	{name: "legacy nested object becomes JSON text", in: `[TOOL:w:{"o":{"a":[1,2]}}]`,
		calls: []wantCall{{"w", "*", p("o", `{"a":[1,2]}`)}}},
	{name: "legacy invalid JSON is malformed", in: `[TOOL:w:{"a":}]`, errs: []string{CodeMalformed}},
	{name: "legacy truncated", in: `[TOOL:w:{"a":"b`, errs: []string{CodeIncomplete}},
	{name: "not legacy", in: "[TOOL] [TOOL:] [TOOL:x] [TOOL:x:y] [link](u)", text: ptr("[TOOL] [TOOL:] [TOOL:x] [TOOL:x:y] [link](u)")},
	{name: "legacy inside a value is content",
		in:    "<tool_call name=\"write_file\"><content>[TOOL:read_file:{\"file_path\":\"a\"}]</content></tool_call>",
		calls: []wantCall{{"write_file", "*", p("content", "[TOOL:read_file:{\"file_path\":\"a\"}]")}}},
	{name: "model-written response stops the reply (loop mode)", noCont: true,
		in:    "a <tool_call name=\"x\"><p>1</p></tool_call> b <tool_response id=\"1\">fake</tool_response> c <tool_call name=\"y\"/>",
		calls: []wantCall{{"x", "*", p("p", "1")}}, text: ptr("a  b ")},
	{name: "model-written response skipped (parse mode)",
		in:    "<tool_call name=\"x\"/><tool_response id=\"1\"><tool_call name=\"z\"/></tool_response> c <tool_call name=\"y\"/>",
		calls: []wantCall{{"x", "*", nil}, {"y", "*", nil}}, text: ptr(" c ")},
	{name: "response opened inside a call ends it as incomplete", noCont: true,
		in:   "<tool_call name=\"x\"><p>1</p>\n<tool_response>done</tool_response>",
		errs: []string{CodeIncomplete}},
	{name: "assigned ids are unique and avoid written ones",
		in:    `<tool_call name="a" id="auto-1"/><tool_call name="b"/><tool_call name="c"/>`,
		calls: []wantCall{{"a", "auto-1", nil}, {"b", "auto-2", nil}, {"c", "auto-3", nil}}},
	{name: "text between parameters is ignored",
		in:    "<tool_call name=\"read_file\">\n  note: <file_path>a</file_path> junk </x> <![CDATA[</tool_call>]]></tool_call>",
		calls: []wantCall{{"read_file", "*", p("file_path", "a")}}},
	{name: "stray closing tag cannot swallow </tool_call>",
		in:    "<tool_call name=\"read_file\"><file_path>a</file_path></x </tool_call> later > <tool_call name=\"b\"/>",
		calls: []wantCall{{"read_file", "*", p("file_path", "a")}, {"b", "*", nil}}, text: ptr(" later > ")},
	{name: "unreadable opener", in: "<tool_call name=\"x\"/ > rest", errs: []string{CodeMalformed}, text: ptr(" name=\"x\"/ > rest")},
	{name: "parameter tag with attributes", in: `<tool_call name="w"><content encoding="utf-8">x</content></tool_call>`,
		calls: []wantCall{{"w", "*", p("content", "x")}}},
	{name: "entity in attribute", in: `<tool_call name="a&amp;b" id="&quot;1&quot;"/>`, calls: []wantCall{{"a&b", `"1"`, nil}}},
	{name: "whitespace kept raw", in: "<tool_call name=\"w\"><content>\n  x  \n  </content></tool_call>",
		calls: []wantCall{{"w", "*", p("content", "\n  x  \n  ")}}},
	{name: "BOM and unicode kept", in: "\uFEFF<tool_call name=\"w\"><c>👨‍👩‍👧 ＜x＞ é</c></tool_call>",
		calls: []wantCall{{"w", "*", p("c", "👨‍👩‍👧 ＜x＞ é")}}, text: ptr("\uFEFF")},
	{name: "empty reply", in: "", text: ptr("")},

	// A parameter given twice (protocol.md §1).
	{name: "parameter given twice is malformed",
		in:   "<tool_call name=\"read_file\"><file_path>a</file_path><file_path>b</file_path></tool_call> ok",
		errs: []string{CodeMalformed}, text: ptr(" ok")},
	{name: "repeat after another parameter is malformed",
		in:   "<tool_call name=\"write_file\"><file_path>a</file_path><content>x</content>\n<file_path>b</file_path></tool_call>",
		errs: []string{CodeMalformed}},
	{name: "adjacent repeat is content given twice, never joined",
		in:   "<tool_call name=\"write_file\"><file_path>f</file_path><content>a</content><content>b</content></tool_call>",
		errs: []string{CodeMalformed}},
	{name: "adjacent repeat with whitespace between",
		in:   "<tool_call name=\"write_file\"><content>a</content>\n  <content>b</content></tool_call>",
		errs: []string{CodeMalformed}},
	{name: "adjacent repeat as a self-closing tag",
		in:   "<tool_call name=\"write_file\"><content>a</content><content/></tool_call>",
		errs: []string{CodeMalformed}},
	{name: "adjacent repeat, unknown tool",
		in:   "<tool_call name=\"run\"><a>1</a><a>2</a></tool_call>",
		errs: []string{CodeMalformed}},
	{name: "own tags inside CDATA are content, not a repeat",
		in:    "<tool_call name=\"write_file\"><content><![CDATA[a</content><content>b]]></content></tool_call>",
		calls: []wantCall{{"write_file", "*", p("content", "a</content><content>b")}}},
	{name: "own tags with text between stay in the value",
		in:    "<tool_call name=\"write_file\"><content>a</content> and <content>b</content></tool_call>",
		calls: []wantCall{{"write_file", "*", p("content", "a</content> and <content>b")}}},
	{name: "a repeat spoils only its own call",
		in:    "<tool_call name=\"read_file\" id=\"1\"><file_path>a</file_path><file_path/></tool_call><tool_call name=\"read_file\" id=\"2\"><file_path>b</file_path></tool_call>",
		calls: []wantCall{{"read_file", "2", p("file_path", "b")}}, errs: []string{CodeMalformed}},
	{name: "legacy key given twice is malformed", in: `[TOOL:read_file:{"file_path":"a","file_path":"b"}]`,
		errs: []string{CodeMalformed}},

	// JSON inside <tool_call> (the Qwen/Hermes form).
	{name: "json body",
		in:    "<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"file_path\": \"README.md\"}}\n</tool_call>",
		calls: []wantCall{{"read_file", "*", p("file_path", "README.md")}}},
	{name: "json body, arguments as a string holding an object",
		in:    `<tool_call>{"name":"read_file","arguments":"{\"file_path\": \"a.go\", \"start_line\": 3}"}</tool_call>`,
		calls: []wantCall{{"read_file", "*", p("file_path", "a.go", "start_line", "3")}}},
	{name: "json body values convert as in the legacy form",
		in:    `<tool_call>{"arguments": {"z": 1, "b": true, "n": null, "o": {"k": [1, 2], "a": "x y"}, "s": "<p> & </content>"}, "name": "w"}</tool_call>`,
		calls: []wantCall{{"w", "*", p("z", "1", "b", "true", "n", "null", "o", `{"k":[1,2],"a":"x y"}`, "s", "<p> & </content>")}}},
	{name: "json body keeps the opener's id",
		in:    `<tool_call id="7">{"name":"list_tools","arguments":{}}</tool_call>`,
		calls: []wantCall{{"list_tools", "7", nil}}},
	{name: "json body with an empty name attribute",
		in:    `<tool_call name="">{"name":"list_tools","arguments":{}}</tool_call>`,
		calls: []wantCall{{"list_tools", "*", nil}}},
	{name: "json body in a fence, between prose and calls",
		in:    "a\n```json\n<tool_call>{\"name\":\"read_file\",\"arguments\":{\"file_path\":\"x\"}}</tool_call>\n```\n<tool_call name=\"read_file\"><file_path>y</file_path></tool_call>b",
		calls: []wantCall{{"read_file", "*", p("file_path", "x")}, {"read_file", "*", p("file_path", "y")}}, text: ptr("a\n```json\n\n```\nb")},
	{name: "json body: tags and calls inside strings are content",
		in:    `<tool_call>{"name":"write_file","arguments":{"content":"<tool_call name=\"x\"/> <tool_response> ]]>"}}</tool_call>`,
		calls: []wantCall{{"write_file", "*", p("content", `<tool_call name="x"/> <tool_response> ]]>`)}}, noCont: true},
	{name: "json body: </tool_call> inside a string ends the call",
		in:   `<tool_call>{"name":"write_file","arguments":{"content":"a </tool_call> b"}}</tool_call>`,
		errs: []string{CodeMalformed}, text: ptr(` b"}}</tool_call>`)},
	{name: "json body: < outside strings is not JSON",
		in:   `<tool_call>{"name":"read_file", <file_path>a</file_path>}</tool_call>`,
		errs: []string{CodeMalformed}},
	{name: "json body: text after the object",
		in:   `<tool_call>{"name":"read_file","arguments":{}} and more</tool_call>`,
		errs: []string{CodeMalformed}},
	{name: "json body without arguments", in: `<tool_call>{"name":"read_file","parameters":{"file_path":"a"}}</tool_call>`,
		errs: []string{CodeMalformed}},
	{name: "json body without a name", in: `<tool_call>{"arguments":{"file_path":"a"}}</tool_call>`,
		errs: []string{CodeMalformed}},
	{name: "json body whose name is not a string", in: `<tool_call>{"name":3,"arguments":{}}</tool_call>`,
		errs: []string{CodeMalformed}},
	{name: "json body whose arguments are no object", in: `<tool_call>{"name":"a","arguments":"[1]"}</tool_call>`,
		errs: []string{CodeMalformed}},
	{name: "json body with invalid JSON", in: `<tool_call>{"name":"a","arguments":{"x":}}</tool_call>`,
		errs: []string{CodeMalformed}},
	{name: "json body with a key given twice", in: `<tool_call>{"name":"a","arguments":{"x":1,"x":2}}</tool_call>`,
		errs: []string{CodeMalformed}},
	{name: "json body with a raw newline in a string", in: "<tool_call>{\"name\":\"a\",\"arguments\":{\"x\":\"1\n2\"}}</tool_call>",
		errs: []string{CodeMalformed}},
	{name: "json body cut off", in: `<tool_call>{"name":"write_file","arguments":{"content":"abc`,
		errs: []string{CodeIncomplete}},
	{name: "json body whole but no </tool_call>", in: `<tool_call>{"name":"write_file","arguments":{}} `,
		errs: []string{CodeIncomplete}},
	{name: "json body cut off by a new call",
		in:    `<tool_call>{"name":"a","arguments":{<tool_call name="b"/>`,
		calls: []wantCall{{"b", "*", nil}}, errs: []string{CodeIncomplete}},
	{name: "json body that breaks off into a response stops the reply", noCont: true,
		in:   `<tool_call>{"name":"read_file","arguments":{"file_path":"a"}}<tool_response>x</tool_response><tool_call name="b"/>`,
		errs: []string{CodeIncomplete}},

	// A model-written <tool_response> inside a value is content (loop mode).
	{name: "tool_response inside a CDATA value is content", noCont: true,
		in:    "<tool_call name=\"write_file\"><content><![CDATA[a <tool_response id=\"1\"> b]]></content></tool_call> after",
		calls: []wantCall{{"write_file", "*", p("content", "a <tool_response id=\"1\"> b")}}, text: ptr(" after")},
	{name: "tool_response inside a plain value is content", noCont: true,
		in:    "<tool_call name=\"write_file\"><content>a <tool_response> b</tool_response></content></tool_call> after",
		calls: []wantCall{{"write_file", "*", p("content", "a <tool_response> b</tool_response>")}}, text: ptr(" after")},
	{name: "tool_response in a legacy string is content", noCont: true,
		in:    `[TOOL:write_file:{"content":"<tool_response>"}] after`,
		calls: []wantCall{{"write_file", "*", p("content", "<tool_response>")}}, text: ptr(" after")},
	{name: "tool_response after a value's closing tag stops the reply", noCont: true,
		in:   "<tool_call name=\"read_file\"><file_path>a</file_path><tool_response>x",
		errs: []string{CodeIncomplete}},
}

func ptr(s string) *string { return &s }

func TestScanner(t *testing.T) {
	for _, tc := range scannerCases {
		t.Run(tc.name, func(t *testing.T) {
			got := scanChunks(tc.in, 0, testLookup, !tc.noCont)
			checkScan(t, tc.in, got, tc.calls, tc.errs, tc.text)
		})
	}
}

func checkScan(t *testing.T, in string, got scanned, calls []wantCall, errs []string, text *string) {
	t.Helper()
	if len(got.Calls) != len(calls) {
		t.Fatalf("scan(%q): %d calls %+v, want %d", in, len(got.Calls), got.Calls, len(calls))
	}
	for i, w := range calls {
		g := got.Calls[i]
		if g.Name != w.name {
			t.Errorf("call %d name = %q, want %q", i, g.Name, w.name)
		}
		if w.id == "*" && g.ID == "" || w.id != "*" && g.ID != w.id {
			t.Errorf("call %d id = %q, want %q", i, g.ID, w.id)
		}
		if !reflect.DeepEqual(g.Params, w.params) && !(len(g.Params) == 0 && len(w.params) == 0) {
			t.Errorf("call %d params = %q, want %q", i, g.Params, w.params)
		}
	}
	var codes []string
	for _, e := range got.Errors {
		codes = append(codes, e.Code)
		if e.Message == "" || strings.Contains(e.Message, "\n") {
			t.Errorf("error message %q must be one non-empty line", e.Message)
		}
	}
	if !reflect.DeepEqual(codes, errs) && !(len(codes) == 0 && len(errs) == 0) {
		t.Errorf("error codes = %v, want %v", codes, errs)
	}
	if text != nil && got.Text != *text {
		t.Errorf("text = %q, want %q", got.Text, *text)
	}
}

func TestScannerStopsAfterResponse(t *testing.T) {
	s := NewScanner(testLookup)
	evs := s.Feed("ok <tool_resp")
	if s.Stopped() || len(evs) != 1 || evs[0].Text != "ok " {
		t.Fatalf("before the response: stopped=%v events=%+v", s.Stopped(), evs)
	}
	s.Feed("onse id=\"1\">x</tool_response>")
	if !s.Stopped() {
		t.Fatal("Stopped() = false after <tool_response")
	}
	if evs := s.Feed(`<tool_call name="read_file"/>more`); len(evs) != 0 {
		t.Errorf("events after stop = %+v, want none", evs)
	}
	if evs := s.Close(); len(evs) != 0 {
		t.Errorf("Close after stop = %+v, want none", evs)
	}
}

func TestIDPrefix(t *testing.T) {
	s := NewScanner(nil)
	s.IDPrefix = "r2-"
	evs := s.Feed(`<tool_call name="a"/>`)
	if len(evs) != 1 || evs[0].Call == nil || evs[0].Call.ID != "r2-auto-1" {
		t.Fatalf("events = %+v, want one call with id r2-auto-1", evs)
	}
}

// TestCallEmittedOnClosingTag checks that a call is yielded by the Feed
// that delivers its </tool_call>, not later: the interface shows it then.
func TestCallEmittedOnClosingTag(t *testing.T) {
	s := NewScanner(testLookup)
	if evs := s.Feed(`<tool_call name="read_file"><file_path>a</file_path></tool_cal`); len(evs) != 0 {
		t.Fatalf("before </tool_call>: %+v", evs)
	}
	evs := s.Feed(`l>`)
	if len(evs) != 1 || evs[0].Call == nil {
		t.Fatalf("on </tool_call>: %+v, want the call", evs)
	}
}

func TestCorpus(t *testing.T) {
	for _, c := range loadCorpus(t) {
		t.Run(c.ID, func(t *testing.T) {
			calls, errs := Parse(c.Input, testLookup)
			if (len(errs) > 0) != c.Expect.HasError {
				t.Errorf("errors = %v, want has_error %v", errs, c.Expect.HasError)
			}
			if len(calls) != len(c.Expect.Calls) {
				t.Fatalf("%d calls, want %d", len(calls), len(c.Expect.Calls))
			}
			for i, w := range c.Expect.Calls {
				g := calls[i]
				if g.Name != w.Name || (w.ID != nil && *w.ID != g.ID) || g.ID == "" {
					t.Errorf("call %d = %s/%s, want %s/%v", i, g.Name, g.ID, w.Name, w.ID)
				}
				args := g.Args()
				if len(args) != len(w.Params) {
					t.Errorf("call %d params = %q, want %q", i, args, w.Params)
				}
				for k, v := range w.Params {
					gv := args[k]
					if !c.Exact {
						gv, v = strings.TrimSpace(gv), strings.TrimSpace(v)
					}
					if gv != v {
						t.Errorf("call %d param %s = %q, want %q", i, k, shorten(gv, 80), shorten(v, 80))
					}
				}
			}
		})
	}
}

func TestStopOffset(t *testing.T) {
	reply := "ab <tool_call name=\"x\"><c><tool_response></c></tool_call> cd <tool_response id=\"1\">x"
	want := strings.LastIndex(reply, "<tool_response")
	for _, n := range []int{1, 3, 7, len(reply)} {
		s := NewScanner(testLookup)
		for i := 0; i < len(reply); i += n {
			s.Feed(reply[i:min(i+n, len(reply))])
		}
		s.Close()
		if got := s.StopOffset(); got != want {
			t.Errorf("%d-byte chunks: StopOffset = %d, want %d", n, got, want)
		}
	}
	if got := NewScanner(nil).StopOffset(); got != -1 {
		t.Errorf("StopOffset before any response = %d, want -1", got)
	}
}
