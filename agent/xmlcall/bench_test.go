package xmlcall

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

const benchSize = 10 << 20

// proseParagraph is markdown a model writes: links, inline code with raw
// < and &, lists — the characters the scanner must look at.
const proseParagraph = "The loader reads `config.toml` first; if `a < b && c > d` holds, it " +
	"falls back to [the defaults](docs/defaults.md). See the table below:\n\n" +
	"| key | value |\n| --- | --- |\n| retries | 3 |\n\n- one item\n- another & more\n\n"

func benchProse() string {
	var b strings.Builder
	for b.Len() < benchSize {
		b.WriteString(proseParagraph)
	}
	return b.String()
}

// benchReplyWithCalls is a 10 MB reply holding 2,000 calls: reads and
// writes, code with raw < and & outside CDATA and in CDATA, with prose
// between them.
func benchReplyWithCalls() string {
	r := rand.New(rand.NewPCG(1, 1))
	code := strings.Repeat("func f(a, b int) bool { return a < b && b > 0 } // x &amp; y\n", 60)
	per := benchSize / 2000
	var b strings.Builder
	for i := range 2000 {
		start := b.Len()
		switch i % 3 {
		case 0:
			fmt.Fprintf(&b, "<tool_call name=\"read_file\" id=\"r%d\"><file_path>src/f%d.go</file_path></tool_call>\n", i, i)
		case 1:
			fmt.Fprintf(&b, "<tool_call name=\"write_file\" id=\"w%d\">\n<operation_type>create</operation_type>\n<file_path>src/g%d.go</file_path>\n<content>\n%s</content>\n</tool_call>\n", i, i, code)
		default:
			fmt.Fprintf(&b, "```xml\n<tool_call name=\"write_file\" id=\"c%d\">\n<operation_type>rewrite</operation_type>\n<file_path>h%d.md</file_path>\n<content><![CDATA[\n%s]]></content>\n</tool_call>\n```\n", i, i, code)
		}
		for b.Len()-start < per {
			b.WriteString(proseParagraph[:r.IntN(len(proseParagraph))+1])
		}
	}
	return b.String()
}

func benchBigCDATA() string {
	line := "const x = a[b[i]] < 0 && y > 1; // <tool_call name=\"x\"> ]] not an end\n"
	return "<tool_call name=\"write_file\" id=\"big\">\n<operation_type>create</operation_type>\n" +
		"<file_path>big.js</file_path>\n<content><![CDATA[" + strings.Repeat(line, benchSize/len(line)) +
		"]]></content>\n</tool_call>\n"
}

func benchFeed(b *testing.B, in string, chunk int, wantCalls int) {
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		s := NewScanner(testLookup)
		calls := 0
		count := func(evs []Event) {
			for _, e := range evs {
				if e.Call != nil {
					calls++
				}
			}
		}
		if chunk <= 0 {
			count(s.Feed(in))
		} else {
			for i := 0; i < len(in); i += chunk {
				count(s.Feed(in[i:min(i+chunk, len(in))]))
			}
		}
		count(s.Close())
		if calls != wantCalls {
			b.Fatalf("%d calls, want %d", calls, wantCalls)
		}
	}
}

func BenchmarkScan(b *testing.B) {
	inputs := []struct {
		name  string
		in    string
		calls int
	}{
		{"prose", benchProse(), 0},
		{"2000calls", benchReplyWithCalls(), 2000},
		{"cdata10MB", benchBigCDATA(), 1},
	}
	for _, in := range inputs {
		b.Run(in.name+"/whole", func(b *testing.B) { benchFeed(b, in.in, 0, in.calls) })
		b.Run(in.name+"/chunk16", func(b *testing.B) { benchFeed(b, in.in, 16, in.calls) })
	}
}
