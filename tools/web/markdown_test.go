package web

import (
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

func markdown(t *testing.T, page string) (string, string) {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	base, _ := url.Parse("https://docs.example/guide/intro.html")
	return toMarkdown(doc, base)
}

func TestToMarkdown(t *testing.T) {
	for _, tc := range []struct {
		name, html, want string
	}{
		{"headings and paragraphs",
			"<h1>Title</h1><p>First  para\ngraph.</p><h3>Sub <em>head</em></h3><p>Second.</p>",
			"# Title\n\nFirst para graph.\n\n### Sub *head*\n\nSecond."},
		{"links are absolute",
			`<p>See <a href="../api/">the API</a>, <a href="#setup">setup</a>, <a href="https://other.example/x?a=1">other</a> and <a href="mailto:a@b.example">mail</a>.</p>`,
			"See [the API](https://docs.example/api/), setup, [other](https://other.example/x?a=1) and [mail](mailto:a@b.example)."},
		{"a heading's own anchor is left out",
			`<h2><a href="#usage">Usage</a><a href="#usage">§</a></h2><p><a href="intro.html#setup">setup</a></p>`,
			"## Usage§\n\n[setup](https://docs.example/guide/intro.html#setup)"},
		{"javascript links keep their text",
			`<p><a href="javascript:alert(1)">click</a> here</p>`,
			"click here"},
		{"icon links without text are dropped",
			`<p>Menu <a href="/x"><svg></svg></a>done</p>`,
			"Menu done"},
		{"lists nest",
			"<ul><li>one</li><li>two<ul><li>two a</li><li>two b</li></ul></li><li><p>three</p></li></ul><ol start=3><li>c</li><li>d</li></ol>",
			"- one\n- two\n  - two a\n  - two b\n- three\n\n3. c\n4. d"},
		{"code block with its language",
			"<p>Run:</p><pre><code class=\"language-go\">func main() {\n\tfmt.Println(\"hi\")\n\n}\n</code></pre><p>Inline <code>x := 1</code> too.</p>",
			"Run:\n\n```go\nfunc main() {\n\tfmt.Println(\"hi\")\n\n}\n```\n\nInline `x := 1` too."},
		{"code holding backticks",
			"<p><code>a`b</code></p><pre>```\nx\n```</pre>",
			"`` a`b ``\n\n````\n```\nx\n```\n````"},
		{"table",
			"<table><thead><tr><th>Name</th><th>Type</th></tr></thead><tbody><tr><td>id</td><td><code>int</code></td></tr><tr><td>a|b</td></tr></tbody></table>",
			"| Name | Type |\n| --- | --- |\n| id | `int` |\n| a\\|b |  |"},
		{"layout table is read as blocks",
			"<table><tr><td><p>Only</p><p>column</p></td></tr></table>",
			"Only\n\ncolumn"},
		{"noise is dropped",
			`<nav><a href="/">Home</a></nav><script>alert(1)</script><style>p{}</style><p>Body<span hidden>secret</span><span aria-hidden="true">icon</span><span style="display: none">x</span>.</p><div role="navigation">menu</div><button>Copy</button><noscript>enable js</noscript><footer>© 2025</footer>`,
			"Body."},
		{"main is preferred",
			"<header>Site</header><main><h2>Doc</h2><p>Text</p><footer>page foot</footer></main><aside>ads</aside>",
			"## Doc\n\nText\n\npage foot"},
		{"blockquote",
			"<blockquote><p>quoted</p><p>twice</p></blockquote><p>after</p>",
			"> quoted\n>\n> twice\n\nafter"},
		{"emphasis and images",
			`<p><strong>bold</strong> <b> b </b><i>it</i> <img src="/i.png" alt="a chart"><img src="/deco.png"></p>`,
			"**bold** **b** *it* ![a chart](https://docs.example/i.png)"},
		{"line breaks and rules",
			"<p>one<br>two</p><hr><p>three</p>",
			"one\ntwo\n\n---\n\nthree"},
		{"divs are lines",
			"<div>alpha</div><div>beta <span>gamma</span></div><div><div></div></div><div>delta</div>",
			"alpha\nbeta gamma\ndelta"},
		{"a link around blocks is one line",
			`<a href="/card"><div><h3>Card</h3><p>blurb</p></div></a>`,
			"[Card blurb](https://docs.example/card)"},
		{"definition list",
			"<dl><dt>term</dt><dd>meaning</dd></dl>",
			"term\n: meaning"},
		{"entities and no-break spaces",
			"<p>a&nbsp;&amp;&nbsp;b &lt;tag&gt;</p>",
			"a & b <tag>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := markdown(t, tc.html)
			if got != tc.want {
				t.Errorf("markdown of %s:\ngot:\n%s\nwant:\n%s", tc.html, got, tc.want)
			}
		})
	}
}

func TestToMarkdownTitleAndBase(t *testing.T) {
	got, title := markdown(t, `<html><head><title> The  Guide </title><base href="https://cdn.example/v2/"></head><body><a href="page">p</a></body></html>`)
	if title != "The Guide" {
		t.Errorf("title = %q, want %q", title, "The Guide")
	}
	if got != "[p](https://cdn.example/v2/page)" {
		t.Errorf("markdown = %q, want the link resolved against <base>", got)
	}
}

// TestPlainTextOfADeepPage: a page nested beyond the parser's limit still
// gives its words, without its scripts.
func TestPlainTextOfADeepPage(t *testing.T) {
	page := "<meta charset=utf-8><link rel=icon href=x><title>T</title><input name=q><script>var s = '<p>no</p>';</script>" + strings.Repeat("<div>", 2000) + "<p>deep  words</p><style>p{}</style><br/>end"
	if _, err := html.Parse(strings.NewReader(page)); err == nil {
		t.Fatal("the parser took a page nested 2000 deep; this test needs one it refuses")
	}
	if got, want := plainText(page), "T\ndeep words\nend"; got != want {
		t.Errorf("plainText = %q, want %q", got, want)
	}
}
