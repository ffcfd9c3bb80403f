package web

import (
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// BenchmarkToMarkdown converts a 1 MB documentation-like page: parsing
// and conversion, as one fetch of such a page costs.
func BenchmarkToMarkdown(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("<html><head><title>Doc</title><script>var a = 1;</script></head><body><nav><a href='/'>Home</a></nav><main>")
	for sb.Len() < 1<<20 {
		sb.WriteString(`<h2 id="s">Section <a href="#s">§</a></h2><p>Some <em>text</em> with <a href="/x/y">a link</a> and <code>code</code>.</p>
<ul><li>one</li><li>two <ul><li>nested</li></ul></li></ul><pre><code class="language-go">func f() {
	return
}</code></pre><table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>`)
	}
	sb.WriteString("</main></body></html>")
	page := sb.String()
	base, _ := url.Parse("https://docs.example/page")
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		doc, _ := html.Parse(strings.NewReader(page))
		toMarkdown(doc, base)
	}
}
