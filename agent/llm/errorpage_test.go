package llm

import "testing"

func TestPageTitle(t *testing.T) {
	for _, tc := range []struct {
		page   string
		status int
		want   string
	}{
		{"<html><head><title>502 Bad Gateway</title></head></html>", 502, "Bad Gateway"},
		{"<HTML><TITLE>\n  Attention Required! | Cloudflare\n</TITLE>", 403, "Attention Required! | Cloudflare"},
		{"<html><title>Tom &amp; Jerry&#39;s proxy</title>", 503, "Tom & Jerry's proxy"},
		{"<html><body>no title</body></html>", 504, "Gateway Timeout"},
		{"<title>\x1b[2Jgotcha", 500, `\x1b[2Jgotcha`},
	} {
		if got := pageTitle([]byte(tc.page), tc.status); got != tc.want {
			t.Errorf("pageTitle(%q) = %q, want %q", tc.page, got, tc.want)
		}
	}
}

func TestBodyKind(t *testing.T) {
	for _, tc := range []struct {
		body     string
		htmlType bool
		want     bodyType
	}{
		{`{"error": {}}`, false, bodyJSON},
		{"  \n[{}]", false, bodyJSON},
		{"", false, bodyJSON},
		{"<!DOCTYPE html><html>", false, bodyHTML},
		{"\n<html>", false, bodyHTML},
		{"upstream connect error", false, bodyText},
		{"anything", true, bodyHTML},
	} {
		if got := bodyKind([]byte(tc.body), tc.htmlType); got != tc.want {
			t.Errorf("bodyKind(%q, %v) = %v, want %v", tc.body, tc.htmlType, got, tc.want)
		}
	}
}
