package prompt

import "testing"

func TestWildmatch(t *testing.T) {
	// Cases from git's t3070-wildmatch.sh (the WM_PATHNAME column).
	tests := []struct {
		text, pattern string
		want          bool
	}{
		{"foo", "foo", true},
		{"foo", "bar", false},
		{"???", "???", true},
		{"??", "???", false},
		{"foo", "*", true},
		{"foo", "f*", true},
		{"foo", "*f", false},
		{"foo", "*foo*", true},
		{"foobar", "*ob*a*r*", true},
		{"aaaaaaabababab", "*ab", true},
		{"foo*", `foo\*`, true},
		{"foobar", `foo\*bar`, false},
		{`f\oo`, `f\\oo`, true},
		{"ball", "*[al]?", true},
		{"ten", "[ten]", false},
		{"ten", "**[!te]", true},
		{"ten", "**[!ten]", false},
		{"ten", "t[a-g]n", true},
		{"ten", "t[!a-g]n", false},
		{"ton", "t[!a-g]n", true},
		{"ton", "t[^a-g]n", true},
		{"a]b", "a[]]b", true},
		{"a-b", "a[]-]b", true},
		{"a]b", "a[]-]b", true},
		{"aab", "a[]-]b", false},
		{"aab", "a[]a-]b", true},
		{"]", "]", true},
		{"foo/baz/bar", "foo*bar", false},
		{"foo/baz/bar", "foo**bar", false},
		{"foobazbar", "foo**bar", true},
		{"foo/baz/bar", "foo/**/bar", true},
		{"foo/baz/bar", "foo/**/**/bar", true},
		{"foo/b/a/z/bar", "foo/**/bar", true},
		{"foo/bar", "foo/**/bar", true},
		{"foo/bar", "foo?bar", false},
		{"foo/bar", "foo[/]bar", false},
		{"foo/bar", "foo[^a-z]bar", false},
		{"foo-bar", "f[^eiu][^eiu][^eiu][^eiu][^eiu]r", true},
		{"foo", "**/foo", true},
		{"XXX/foo", "**/foo", true},
		{"bar/baz/foo", "**/foo", true},
		{"bar/baz/foo", "*/foo", false},
		{"foo/bar/baz", "**/bar*", false},
		{"deep/foo/bar/baz", "**/bar/*", true},
		{"deep/foo/bar/baz/", "**/bar/*", false},
		{"deep/foo/bar/baz/", "**/bar/**", true},
		{"deep/foo/bar", "**/bar/*", false},
		{"deep/foo/bar/", "**/bar/**", true},
		{"foo/bar/baz", "**/bar**", false},
		{"foo/bar/baz/x", "*/bar/**", true},
		{"deep/foo/bar/baz/x", "*/bar/**", false},
		{"deep/foo/bar/baz/x", "**/bar/*/*", true},
		{"a1B", "[[:alpha:]][[:digit:]][[:upper:]]", true},
		{"a", "[[:digit:][:upper:][:space:]]", false},
		{"A", "[[:digit:][:upper:][:space:]]", true},
		{"5", "[[:xdigit:]]", true},
		{"x", "[[:nope:]]", false},
		{"[", "[[]", true},
		{"a", "[", false},
		{"a", `a\`, false},
		{"", "", true},
		{"", "*", true},
		{"x", "", false},
	}
	for _, tt := range tests {
		if got := wildmatch(tt.pattern, tt.text); got != tt.want {
			t.Errorf("wildmatch(%q, %q) = %v, want %v", tt.pattern, tt.text, got, tt.want)
		}
	}
}

func TestParsePatterns(t *testing.T) {
	l := parsePatterns("", []byte("\xef\xbb\xbf# comment\n\n!keep\nbuild/\n/top\ntrail  \nesc\\ \r\ntab\t\n"))
	want := []pattern{
		{glob: "keep", negate: true, noDir: true, prefix: 4, segments: -1},
		{glob: "build", mustDir: true, noDir: true, prefix: 5, segments: -1},
		{glob: "/top", prefix: 4, segments: 1},
		{glob: "trail", noDir: true, prefix: 5, segments: -1},
		{glob: `esc\ `, noDir: true, prefix: 3, segments: -1},
		{glob: "tab\t", noDir: true, prefix: 4, segments: -1},
	}
	if len(l.pats) != len(want) {
		t.Fatalf("parsed %d patterns %+v, want %d", len(l.pats), l.pats, len(want))
	}
	for i := range want {
		if l.pats[i] != want[i] {
			t.Errorf("pattern %d = %+v, want %+v", i, l.pats[i], want[i])
		}
	}
}
