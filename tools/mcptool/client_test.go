package mcptool

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/agentcli/agent/tools"
)

// importFake discovers the fake server (and any others) into a registry.
func importFake(t *testing.T, opts Options, specs ...Spec) (*tools.Registry, []Server) {
	t.Helper()
	c, servers := Discover(context.Background(), specs, opts)
	t.Cleanup(func() { _ = c.Close() })
	reg := tools.NewRegistry()
	for _, s := range servers {
		for _, tl := range s.Tools {
			if err := reg.Add(tl); err != nil {
				t.Fatal(err)
			}
		}
	}
	return reg, servers
}

func byName(servers []Server, name string) Server {
	for _, s := range servers {
		if s.Name == name {
			return s
		}
	}
	return Server{}
}

func TestDiscoverSkipsDeadAndSlowServers(t *testing.T) {
	start := time.Now()
	_, servers := importFake(t, Options{Timeout: 1500 * time.Millisecond},
		fakeSpec(t, "fake", "ok"), fakeSpec(t, "gone", "dead"), fakeSpec(t, "slow", "slow"),
		Spec{Name: "nothere", Command: "/nonexistent/mcp-server"})
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("discovery took %s; the limit is 1.5s per server, in parallel", took)
	}
	if len(servers) != 4 {
		t.Fatalf("got %d outcomes, want 4", len(servers))
	}
	if s := byName(servers, "fake"); s.Err != nil || len(s.Tools) != 8 || len(s.Skipped) != 3 {
		t.Fatalf("fake: err %v, %d tools, skipped %q", s.Err, len(s.Tools), s.Skipped)
	}
	for _, name := range []string{"gone", "slow", "nothere"} {
		if s := byName(servers, name); s.Err == nil || len(s.Tools) != 0 {
			t.Errorf("%s: want an error and no tools, got %v, %d tools", name, s.Err, len(s.Tools))
		}
	}
	if err := byName(servers, "slow").Err; !strings.Contains(err.Error(), "no answer within 1.5s") {
		t.Errorf("slow server error = %v", err)
	}
	for _, want := range []string{"bad_type", "bad_ref", "bad_json"} {
		if !strings.Contains(strings.Join(byName(servers, "fake").Skipped, "\n"), want) {
			t.Errorf("skipped list does not name %s: %q", want, byName(servers, "fake").Skipped)
		}
	}
}

func TestStartDeliversServersAsTheyArrive(t *testing.T) {
	c := Start(context.Background(), []Spec{fakeSpec(t, "slow", "slow"), fakeSpec(t, "fake", "ok")}, Options{Timeout: time.Second})
	defer c.Close()
	start := time.Now()
	first := <-c.Updates()
	if first.Name != "fake" || first.Err != nil || time.Since(start) > 900*time.Millisecond {
		t.Fatalf("first update %s (err %v) after %s; want fake, long before the slow one", first.Name, first.Err, time.Since(start))
	}
	rest := c.Wait()
	if len(rest) != 1 || rest[0].Name != "slow" || rest[0].Err == nil {
		t.Fatalf("rest = %+v", rest)
	}
}

func call(t *testing.T, reg *tools.Registry, name string, raw map[string]string) tools.Result {
	t.Helper()
	res, err := reg.Call(context.Background(), name, raw)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

func TestImportedToolConvertsAndValidates(t *testing.T) {
	reg, _ := importFake(t, Options{Timeout: 5 * time.Second}, fakeSpec(t, "fake", "ok"))
	res := call(t, reg, "mcp__fake__echo", map[string]string{"message": "\nhello <world>\n"})
	if res.IsError() || res.Content != `echo {"message":"hello <world>\n"}` {
		t.Fatalf("echo = %+v", res)
	}
	res = call(t, reg, "mcp__fake__add", map[string]string{"a": "1.5", "b": " 2 ", "neg": "yes", "tags": `["x","y"]`, "unit": "KM", "any": `{"k":1}`})
	if want := `add {"a":1.5,"any":{"k":1},"b":2,"neg":true,"tags":["x","y"],"unit":"km"}`; res.Content != want {
		t.Fatalf("add = %q (%s), want %q", res.Content, res.Message, want)
	}
	if res := call(t, reg, "mcp__fake__add", map[string]string{"a": "1", "b": "2", "any": "plain text"}); !strings.Contains(res.Content, `"any":"plain text"`) {
		t.Errorf("a loose value that is not JSON is a string: %+v", res)
	}
	for _, bad := range []map[string]string{
		{"a": "-1", "b": "2"},  // below the minimum
		{"a": "one", "b": "2"}, // not JSON
		{"a": "1", "b": "2.5"}, // not an integer
		{"a": "1", "b": "2", "unit": "mile"},
		{"a": "1", "b": "2", "tags": `[1]`}, // items must be strings
		{"b": "2"},                          // a is required
		{"a": "1", "b": "2", "c": "3"},      // no such parameter
	} {
		if res := call(t, reg, "mcp__fake__add", bad); res.Code != tools.CodeSchemaInvalid {
			t.Errorf("add %v = %+v, want TOOL_SCHEMA_INVALID", bad, res)
		}
	}
}

func TestMisbehavingServer(t *testing.T) {
	reg, _ := importFake(t, Options{Timeout: 5 * time.Second}, fakeSpec(t, "fake", "ok"))
	reg.Timeout = 500 * time.Millisecond
	echo := map[string]string{"message": "still here"}

	res := call(t, reg, "mcp__fake__crash", nil)
	if res.Code != tools.CodeProviderError || !strings.Contains(res.Message, "stopped during the call") {
		t.Fatalf("crash = %+v", res)
	}
	if res := call(t, reg, "mcp__fake__echo", echo); res.IsError() {
		t.Fatalf("after a crash the server starts again: %+v", res)
	}

	if res := call(t, reg, "mcp__fake__hang", nil); res.Code != tools.CodeTimeout {
		t.Fatalf("hang = %+v, want TOOL_TIMEOUT", res)
	}
	if res := call(t, reg, "mcp__fake__echo", echo); res.IsError() {
		t.Fatalf("after a hang the server still answers: %+v", res)
	}

	// 10 MB; the race detector makes decoding that much JSON slow, so
	// the race pass (-short) sends 2 MB.
	mb := "10"
	if testing.Short() {
		mb = "2"
	}
	reg.Timeout = 20 * time.Second
	start := time.Now()
	res = call(t, reg, "mcp__fake__big", map[string]string{"mb": mb})
	t.Logf("a %s MB result took %s", mb, time.Since(start))
	if res.IsError() || len(res.Content) != DefaultMaxResult || !strings.Contains(res.Message, "first") {
		t.Fatalf("big: %d bytes, %q", len(res.Content), res.Message)
	}

	res = call(t, reg, "mcp__fake__image", nil)
	if res.Content != "[image image/png, 8 bytes, not shown]\n[resource link file:///tmp/x x]" {
		t.Errorf("image = %q", res.Content)
	}

	res = call(t, reg, "mcp__fake__fail", nil)
	if res.Code != tools.CodeProviderError || !strings.Contains(res.Message, "no such city") || strings.Contains(res.Message, "\n") {
		t.Errorf("fail = %+v", res)
	}
}

func TestUntrustedDescriptionAndApproval(t *testing.T) {
	spec := fakeSpec(t, "fake", "ok")
	spec.ReadOnly = []string{"echo"}
	reg, _ := importFake(t, Options{Timeout: 5 * time.Second}, spec)
	weather, _ := reg.Lookup("mcp__fake__weather")
	d := weather.Definition()
	if strings.ContainsAny(d.Description, "\n\x00\u202e") || len(d.Description) > maxToolDesc+40 || !strings.HasPrefix(d.Description, "(MCP server fake) Reads the weather.") {
		t.Errorf("description = %q", d.Description)
	}
	if !d.Writes {
		t.Error("an imported tool is approved like a write")
	}
	echo, _ := reg.Lookup("mcp__fake__echo")
	if echo.Definition().Writes {
		t.Error("a tool the user's config marks read-only runs without approval")
	}
	p, res, err := echo.(tools.Previewer).Preview(context.Background(), tools.Input{Values: map[string]any{"message": "hi"}})
	if err != nil || res != nil || p.Scope != "mcp:fake" || p.Summary == "" {
		t.Errorf("preview = %+v, %v, %v", p, res, err)
	}
	// An argument is shown whole, as it is sent: never cut, its blanks
	// and hidden characters kept for the screens to show.
	long := "start " + strings.Repeat("word ", 200) + strings.Repeat(" ", 300) + "tail\u202e end"
	p, _, _ = echo.(tools.Previewer).Preview(context.Background(), tools.Input{Values: map[string]any{"message": long}})
	if len(p.Lines) != 1 || p.Lines[0] != "message: "+long {
		t.Errorf("preview lines = %q, want the whole argument", p.Lines)
	}
	add, _ := reg.Lookup("mcp__fake__add")
	if _, res, _ := add.(tools.Previewer).Preview(context.Background(), tools.Input{Values: map[string]any{"a": -1.0, "b": 1}}); res == nil || res.Code != tools.CodeSchemaInvalid {
		t.Errorf("a preview of an invalid call refuses it: %+v", res)
	}
}
