package web

import (
	"strings"
	"testing"

	"github.com/agentcli/agent/prompt"
	"github.com/agentcli/agent/tools"
)

func input(u string) tools.Input { return tools.Input{Values: map[string]any{"url": u}} }

// TestPreview: the question names the URL and its host, and "always"
// covers that host only.
func TestPreview(t *testing.T) {
	tool := New(Options{})
	for _, tc := range []struct {
		url, summary, scope string
	}{
		{"https://Docs.Example.com/a/b?q=1", "fetch https://docs.example.com/a/b?…", "web_fetch:docs.example.com"},
		{"http://example.com:8080/", "fetch http://example.com:8080/", "web_fetch:example.com:8080"},
		{"https://example.com:443/x", "fetch https://example.com/x", "web_fetch:example.com"},
		{"https://[2606:4700::1]/", "fetch https://[2606:4700::1]/", "web_fetch:[2606:4700::1]"},
	} {
		p, res, err := tool.Preview(t.Context(), input(tc.url))
		if err != nil || res != nil {
			t.Fatalf("Preview(%s) = %v, %v", tc.url, res, err)
		}
		if p.Summary != tc.summary || p.Scope != tc.scope || !strings.Contains(p.ScopeLabel, strings.TrimPrefix(tc.scope, "web_fetch:")) {
			t.Errorf("Preview(%s) = %+v, want summary %q, scope %q", tc.url, p, tc.summary, tc.scope)
		}
	}
	for _, u := range []string{"http://127.0.0.1/", "file:///etc/passwd", "http://[::ffff:10.0.0.1]/"} {
		if _, res, _ := tool.Preview(t.Context(), input(u)); res == nil || res.Code != tools.CodePolicyDenied {
			t.Errorf("Preview(%s) = %v, want %s without asking", u, res, tools.CodePolicyDenied)
		}
	}
	if _, res, _ := tool.Preview(t.Context(), input("example.com/page")); res == nil || res.Code != tools.CodeSchemaInvalid {
		t.Errorf("Preview of a URL without a scheme = %v, want %s", res, tools.CodeSchemaInvalid)
	}
}

// TestAllowed: a host in web.allow_hosts is fetched without asking; any
// other host, or another port of a host allowed with one, is asked about.
func TestAllowed(t *testing.T) {
	tool := New(Options{AllowHosts: []string{"docs.internal", "localhost:8080", "127.0.0.1:9000"}})
	for _, tc := range []struct {
		url  string
		want bool
	}{
		{"https://docs.internal/guide", true},
		{"http://docs.internal:8000/", true},
		{"http://localhost:8080/", true},
		{"http://localhost:8081/", false},
		{"http://127.0.0.1:9000/", true},
		{"http://127.0.0.1/", false},
		{"https://example.com/", false},
		{"ftp://docs.internal/", false},
	} {
		if got := tool.Allowed(input(tc.url)); got != tc.want {
			t.Errorf("Allowed(%s) = %v, want %v", tc.url, got, tc.want)
		}
	}
	// An allowed host's private address passes the checks.
	if _, res, _ := tool.Preview(t.Context(), input("http://127.0.0.1:9000/")); res != nil {
		t.Errorf("Preview of an allowed local address = %+v, want no refusal", res)
	}
}

// TestCatalogEntrySize keeps web_fetch's entry of the system prompt's
// tool catalog under 300 bytes, measured as the prompt renders it.
func TestCatalogEntrySize(t *testing.T) {
	def := New(Options{}).Definition()
	pt := prompt.Tool{Name: def.Name, Description: def.Description}
	for _, p := range def.Params {
		pt.Params = append(pt.Params, prompt.Param{Name: p.Name, Kind: p.Kind.String(), Required: p.Required, Enum: p.Enum, Description: p.Description})
	}
	p, err := prompt.Build(t.Context(), prompt.Options{Root: t.TempDir(), Tools: []prompt.Tool{pt}})
	if err != nil {
		t.Fatal(err)
	}
	entry := strings.TrimPrefix(p.Section(prompt.SectionTools), "# Tools\n\n")
	t.Logf("catalog entry, %d bytes:\n%s", len(entry), entry)
	if len(entry) >= 300 {
		t.Errorf("web_fetch's catalog entry is %d bytes, want under 300", len(entry))
	}
	if !def.Writes || def.AutoApproved {
		t.Errorf("definition %+v: a fetch must be asked about like a write", def)
	}
	if !def.NotServed || def.RunsPrograms() || len(def.PathParams()) != 0 {
		t.Errorf("definition %+v: a fetch is never served, runs nothing, names no project path", def)
	}
}
