package agent_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	. "github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/xmlcall"
)

func TestEstimateTokens(t *testing.T) {
	var rows []map[string]any
	for i := range 200 {
		rows = append(rows, map[string]any{"id": 100000 + i, "ok": i%2 == 0, "tag": fmt.Sprintf("t%d", i), "v": []int{i, i * 7}})
	}
	minified, _ := json.Marshal(rows)
	cjk := strings.Repeat("上下文窗口必须容纳系统提示。日本語のテキストも数える。한국어 문장도 있다。", 40)
	prose := strings.Repeat("The agent keeps every request inside the model's window, and old results fade first. ", 40)

	// What common tokenizers give is at least a token per CJK character
	// and about one per 2.5 bytes of minified JSON; bytes/4 gives far
	// less for both.
	cases := []struct {
		name     string
		text     string
		atLeast  int
		atMost   int
		bytesBy4 int
	}{
		{"cjk", cjk, utf8.RuneCountInString(cjk), 2 * utf8.RuneCountInString(cjk), len(cjk) / 4},
		{"minified json", string(minified), len(minified) * 10 / 27, len(minified) * 2 / 3, len(minified) / 4},
		{"english prose", prose, len(prose) / 5, len(prose) * 10 / 35, len(prose) / 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := EstimateTokens(c.text)
			if got < c.atLeast || got > c.atMost {
				t.Errorf("EstimateTokens(%d bytes) = %d, want %d..%d (bytes/4 would say %d)", len(c.text), got, c.atLeast, c.atMost, c.bytesBy4)
			}
		})
	}
}

func TestEstimateCorrectedByReportedTokens(t *testing.T) {
	b := &Budget{Window: 100000}
	req := textRequest(strings.Repeat("word ", 4000))
	raw := b.Estimate(req)
	b.Observe(raw, 2*raw) // the provider counted twice what we guessed
	if got := b.Estimate(req); got < 2*raw-2 || got > 2*raw+2 {
		t.Errorf("after the provider reported %d for a %d estimate, Estimate = %d, want about %d", 2*raw, raw, got, 2*raw)
	}
	b.Observe(b.Estimate(req), 1) // an absurd report is bounded
	if got := b.Estimate(req); got < raw*3/4 {
		t.Errorf("a report of 1 token brought the estimate down to %d (raw %d): the correction must stay bounded", got, raw)
	}
}

func TestLargeResultsAreCutWithANote(t *testing.T) {
	b := &Budget{Window: 8000}
	big := strings.Repeat("match: some line of a search result\n", 2000) // 72 KB
	rs := b.FitResponsesForTest([]xmlcall.Response{{ID: "1", Name: "search_files", Content: big}, {ID: "2", Name: "x", Content: "small"}})
	room := b.ReadBudget()
	if n := len(rs[0].Content); n > room || !strings.Contains(rs[0].Content, "to fit the context window:") {
		t.Errorf("a %d-byte result became %d bytes (room %d), want it cut with a note", len(big), n, room)
	}
	if !strings.HasSuffix(strings.SplitN(rs[0].Content, "\n[output cut", 2)[0], "\n") {
		t.Error("not cut at a line break")
	}
	if rs[1].Content != "small" {
		t.Errorf("a small result changed: %q", rs[1].Content)
	}
	if got := (&Budget{}).FitResponsesForTest([]xmlcall.Response{{Content: big}}); got[0].Content != big {
		t.Error("with no window known, a result was cut")
	}
}
