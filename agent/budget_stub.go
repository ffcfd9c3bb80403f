package agent

import (
	"encoding/xml"
	"fmt"
	"slices"
	"strings"

	"github.com/agentcli/agent/agent/llm"
)

// stubMin is the smallest result worth eliding, in bytes: below it the
// stub saves next to nothing and the model loses the content.
const stubMin = 512

// span is one <tool_response> block inside a message's text.
type span struct {
	start, end int // byte offsets of the block, end exclusive
	// head is the block up to and including </tool_call>: the call,
	// kept in the stub.
	head string
	id   string
}

// responseSpans finds the <tool_response> blocks of a rendered user turn.
// It skips CDATA sections, where tool output lives, so that a file that
// holds "</tool_response>" cannot end a block early.
func responseSpans(text string) []span {
	var out []span
	start := -1
	for i := 0; i < len(text); {
		j := strings.IndexByte(text[i:], '<')
		if j < 0 {
			break
		}
		i += j
		rest := text[i:]
		switch {
		case strings.HasPrefix(rest, "<![CDATA["):
			k := strings.Index(rest, "]]>")
			if k < 0 {
				return out
			}
			i += k + 3
			continue
		case start < 0 && strings.HasPrefix(rest, "<tool_response "):
			start = i
		case start >= 0 && strings.HasPrefix(rest, "</tool_response>"):
			end := i + len("</tool_response>")
			if sp, ok := newSpan(text, start, end); ok {
				out = append(out, sp)
			}
			start = -1
			i = end
			continue
		}
		i++
	}
	return out
}

func newSpan(text string, start, end int) (span, bool) {
	block := text[start:end]
	k := strings.Index(block, "</tool_call>")
	if k < 0 {
		return span{}, false
	}
	head := block[:k+len("</tool_call>")]
	id := ""
	if _, rest, ok := strings.Cut(head, `id="`); ok {
		id, _, _ = strings.Cut(rest, `"`)
	}
	if id == "" {
		return span{}, false
	}
	return span{start: start, end: end, head: head, id: id}, true
}

// responseXML is what a stub needs to know of a block.
type responseXML struct {
	Call struct {
		Name   string `xml:"name,attr"`
		Params []struct {
			XMLName xml.Name
			Name    string `xml:"name,attr"`
			Value   string `xml:",chardata"`
		} `xml:",any"`
	} `xml:"tool_call"`
	Result struct {
		Error *struct {
			Code string `xml:"code,attr"`
		} `xml:"error"`
		Metadata struct {
			Attrs []xml.Attr `xml:",any,attr"`
		} `xml:"metadata"`
		Content string `xml:"content"`
	} `xml:"result"`
}

// stub returns the block with its result replaced by one line saying
// what was there, or ok false when the block is an error or too small
// to be worth it. The call stays, so the model knows what it did.
func stub(block string, sp span) (string, bool) {
	if len(block)-len(sp.head) < stubMin || strings.Contains(block[len(sp.head):], "<note>[") {
		return "", false
	}
	var r responseXML
	if err := xml.Unmarshal([]byte(block), &r); err != nil || r.Result.Error != nil {
		return "", false
	}
	desc := r.Call.Name
	if len(r.Call.Params) > 0 {
		v := strings.TrimSpace(r.Call.Params[0].Value)
		if len(v) > 80 || strings.ContainsAny(v, "\n[]") {
			v = ""
		}
		if v != "" {
			desc += " " + v
		}
	}
	for _, a := range r.Result.Metadata.Attrs {
		if a.Name.Local == "range" {
			desc += " lines " + a.Value
		}
	}
	again := "run it again if needed"
	if strings.Contains(r.Call.Name, "read") {
		again = "read again if needed"
	}
	line := fmt.Sprintf("[%s, %s: elided to save context; %s]", desc, sizeLabel(len(r.Result.Content)), again)
	return sp.head + "\n  <result>\n    <note>" + xmlEscape(line) + "</note>\n  </result>\n</tool_response>", true
}

func sizeLabel(n int) string {
	if n < 1024 {
		return fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("%d KB", (n+512)/1024)
}

func xmlEscape(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}

// shrink elides old tool results, oldest first, while the request is
// above the high-water mark, down to the low-water mark. Results already
// elided stay elided on every later request (the same stubs, byte for
// byte, so the prefix stays cached), and the newest tool results are
// always whole. It returns the request (its messages copied when changed)
// and its estimate.
func (b *Budget) shrink(req llm.Request) (llm.Request, int) {
	msgs := slices.Clone(req.Messages)
	newest := -1 // the newest user turn holding tool responses
	for i := len(msgs) - 1; i >= 0 && newest < 0; i-- {
		if msgs[i].Role == llm.User && strings.Contains(msgs[i].Text, "<tool_response ") {
			newest = i
		}
	}
	// Earlier stubs first, so that the estimate below is of what is sent.
	if len(b.elided) > 0 {
		for i := range msgs {
			if i != newest && msgs[i].Role == llm.User {
				msgs[i].Text = b.apply(msgs[i].Text, func(id string) bool { return b.elided[id] }, nil)
				dropImages(&msgs[i], func(k string) bool { return b.elided[k] }, nil)
			}
		}
	}
	req.Messages = msgs
	est := b.Estimate(req)
	limit := b.Limit(req)
	if est <= int(float64(limit)*highWater) {
		return req, est
	}
	target := int(float64(limit) * lowWater)
	for i := range msgs {
		if est <= target {
			break
		}
		if i == newest || msgs[i].Role != llm.User {
			continue
		}
		before := EstimateTokens(msgs[i].Text) + b.imageCost(msgs[i])
		msgs[i].Text = b.apply(msgs[i].Text, func(string) bool { return est > target }, b.elide)
		dropImages(&msgs[i], func(string) bool { return est > target }, b.elideImage)
		// The estimate moves a whole message at a time: close enough, as
		// a message holds one turn's results.
		est -= int(float64(before-EstimateTokens(msgs[i].Text)-b.imageCost(msgs[i])) * b.correction())
	}
	return req, b.Estimate(req)
}

// apply replaces, in a user turn, the results of the calls want picks
// with stubs, calling done (when not nil) with each id stubbed.
func (b *Budget) apply(text string, want func(id string) bool, done func(id string)) string {
	if !strings.Contains(text, "<tool_response ") {
		return text
	}
	var out strings.Builder
	last := 0
	for _, sp := range responseSpans(text) {
		if !want(sp.id) {
			continue
		}
		s, ok := stub(text[sp.start:sp.end], sp)
		if !ok {
			continue
		}
		if done != nil {
			done(sp.id)
		}
		out.WriteString(text[last:sp.start])
		out.WriteString(s)
		last = sp.end
	}
	if last == 0 {
		return text
	}
	out.WriteString(text[last:])
	return out.String()
}

// elide marks a call's result as elided and tells the file tools.
func (b *Budget) elide(id string) {
	if b.elided == nil {
		b.elided = map[string]bool{}
	}
	if b.elided[id] {
		return
	}
	b.elided[id] = true
	if b.Reads != nil {
		b.Reads.ForgetCall(id)
	}
}
