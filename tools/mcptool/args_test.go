package mcptool

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestServeChecksArgumentTypes: a value of the wrong JSON type is refused
// with TOOL_SCHEMA_INVALID naming the parameter and both types, never
// turned into its JSON text ({"file_path":123} is not the file "123").
func TestServeChecksArgumentTypes(t *testing.T) {
	reg, _ := testRegistry(t)
	cs := connectInMemory(t, NewServer(reg, ServeOptions{}))
	cases := []struct {
		name, tool, args string
		want             []string // substrings of the answer; nil: a success
	}{
		{"number for a string", "read_file", `{"file_path":123}`, []string{"TOOL_SCHEMA_INVALID", "file_path must be a string, not a number (123)"}},
		{"boolean for a string", "read_file", `{"file_path":true}`, []string{"TOOL_SCHEMA_INVALID", "file_path must be a string, not a boolean"}},
		{"object for a string", "read_file", `{"file_path":{"a":1}}`, []string{"file_path must be a string, not an object"}},
		{"string for an integer", "read_file", `{"file_path":"a.txt","start_line":"1"}`, []string{"start_line must be an integer, not a string"}},
		{"string for a boolean", "read_file", `{"file_path":"a.txt","line_numbers":"yes"}`, []string{"line_numbers must be a boolean (true or false), not a string"}},
		{"array for an integer", "list_directory", `{"depth":[1]}`, []string{"depth must be an integer, not an array"}},
		{"right types", "read_file", `{"file_path":"a.txt","start_line":2,"line_numbers":true}`, nil},
		{"null is not given", "read_file", `{"file_path":"a.txt","start_line":null}`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: json.RawMessage(c.args)})
			if err != nil {
				t.Fatal(err)
			}
			got := text(res)
			if c.want == nil {
				if res.IsError || !strings.Contains(got, "beta") {
					t.Fatalf("%s %s = %q (error %v), want the file", c.tool, c.args, got, res.IsError)
				}
				return
			}
			if !res.IsError {
				t.Fatalf("%s %s = %q, want an error", c.tool, c.args, got)
			}
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("%s %s = %q, want it to hold %q", c.tool, c.args, got, w)
				}
			}
		})
	}
}
