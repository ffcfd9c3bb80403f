package xmlcall

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// scanned is everything a Scanner produced for one input.
type scanned struct {
	Text   string
	Calls  []Call
	Errors []Error
	Order  []string // "text", "call", "error" in emission order (text runs merged)
}

// testLookup knows two tools, like the agent's registry would.
func testLookup(name string) ([]string, bool) {
	switch name {
	case "read_file":
		return []string{"file_path", "start_line", "end_line"}, true
	case "write_file":
		return []string{"operation_type", "file_path", "content", "start_line", "end_line", "create_backup"}, true
	}
	return nil, false
}

// scanChunks feeds input in chunks of n bytes (n <= 0: whole) and collects.
func scanChunks(input string, n int, lookup ParamLookup, cont bool) scanned {
	s := NewScanner(lookup)
	s.ContinueAfterResponse = cont
	var out scanned
	var text strings.Builder
	add := func(evs []Event) {
		for _, e := range evs {
			switch {
			case e.Call != nil:
				c := *e.Call
				c.Params = append([]Param(nil), c.Params...)
				out.Calls = append(out.Calls, c)
				out.Order = append(out.Order, "call")
			case e.Err != nil:
				out.Errors = append(out.Errors, *e.Err)
				out.Order = append(out.Order, "error")
			default:
				text.WriteString(e.Text)
				if k := len(out.Order); k == 0 || out.Order[k-1] != "text" {
					out.Order = append(out.Order, "text")
				}
			}
		}
	}
	if n <= 0 {
		add(s.Feed(input))
	} else {
		for i := 0; i < len(input); i += n {
			add(s.Feed(input[i:min(i+n, len(input))]))
		}
	}
	add(s.Close())
	out.Text = text.String()
	return out
}

func (s scanned) json() string {
	b, _ := json.Marshal(s)
	return string(b)
}

// corpusCase is one line of the shared public parser corpus.
type corpusCase struct {
	ID     string `json:"id"`
	Input  string `json:"input"`
	Exact  bool   `json:"exact"`
	Expect struct {
		Calls []struct {
			Name   string            `json:"name"`
			ID     *string           `json:"id"`
			Params map[string]string `json:"params"`
		} `json:"calls"`
		HasError bool `json:"has_error"`
	} `json:"expect"`
}

const corpusPath = "../../../shared/corpus/parse/public.jsonl"

// localCorpus holds this package's cases in the shared corpus's shape, so
// that the same checker can run them through `agent parse`.
const localCorpus = "testdata/protocol.jsonl"

// loadCorpus reads the package's cases and the shared corpus when it is
// there (it is beside the repository in CI; a plain clone may not have it).
func loadCorpus(t testing.TB) []corpusCase {
	cases := readCases(t, localCorpus)
	data, err := os.ReadFile(corpusPath)
	if err != nil {
		t.Logf("shared parser corpus not found (%v): skipping its cases", err)
		return cases
	}
	return append(cases, parseCases(t, data)...)
}

func readCases(t testing.TB, path string) []corpusCase {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return parseCases(t, data)
}

func parseCases(t testing.TB, data []byte) []corpusCase {
	var cases []corpusCase
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var c corpusCase
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatalf("corpus line: %v", err)
		}
		cases = append(cases, c)
	}
	return cases
}
