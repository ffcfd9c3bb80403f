package hooks

import (
	"encoding/json"
	"maps"
	"math"
	"path/filepath"
	"strconv"
	"strings"
)

// This file translates between the agent's tools and Claude Code's, for
// hooks written for Claude Code: a matcher copied from its settings
// ("Write|Edit", "Bash") and a hook of the claude format, which reads
// Claude Code's tool names and parameters (file_path absolute,
// old_string, new_string) and answers in them. It is the one place that
// knows the other product's names, so it goes by our tools' names.

// claudeNames are Claude Code's names for the agent's tools: a matcher
// may use any of them; a hook of the claude format is told the one
// toClaude picks.
var claudeNames = map[string][]string{
	"write_file":     {"Write", "Edit", "MultiEdit"}, // every mode: create, rewrite, partial, replace
	"run_command":    {"Bash"},
	"read_file":      {"Read"},
	"list_directory": {"LS", "Glob"},
	"search_files":   {"Grep"},
	"web_fetch":      {"WebFetch"},
	"task":           {"Task"},
	"explore":        {"Task"},
}

// toClaude is a call of tool with input (the agent's parameters) as
// Claude Code would have made it: its tool name and parameters, paths
// absolute from dir. A tool Claude Code has no name for (an MCP tool is
// named mcp__server__tool by both) keeps its own.
func toClaude(tool string, in map[string]any, dir string) (string, map[string]any) {
	str := func(k string) string { return text(in[k]) }
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(dir, p) // "" is the project folder itself
	}
	copyIf := func(m map[string]any, to, from string) {
		if v, ok := in[from]; ok {
			m[to] = v
		}
	}
	switch tool {
	case "write_file":
		p := abs(str("file_path"))
		switch str("operation_type") {
		case "replace":
			m := map[string]any{"file_path": p, "old_string": str("old_text"), "new_string": str("content")}
			copyIf(m, "replace_all", "replace_all")
			return "Edit", m
		case "partial":
			m := map[string]any{"file_path": p, "new_string": str("content")}
			copyIf(m, "start_line", "start_line")
			copyIf(m, "end_line", "end_line")
			return "Edit", m
		}
		return "Write", map[string]any{"file_path": p, "content": str("content")}
	case "run_command":
		m := map[string]any{"command": str("command")}
		if s, ok := number(in["timeout"]); ok {
			m["timeout"] = s * 1000 // milliseconds
		}
		copyIf(m, "run_in_background", "background")
		return "Bash", m
	case "read_file":
		m := map[string]any{"file_path": abs(str("file_path"))}
		if s, ok := number(in["start_line"]); ok {
			m["offset"] = s
			if e, ok := number(in["end_line"]); ok && e >= s {
				m["limit"] = e - s + 1
			}
		}
		return "Read", m
	case "search_files":
		m := map[string]any{"pattern": str("pattern"), "path": abs(str("path"))}
		copyIf(m, "glob", "glob")
		return "Grep", m
	case "list_directory":
		return "LS", map[string]any{"path": abs(str("path"))}
	case "web_fetch":
		return "WebFetch", map[string]any{"url": str("url")}
	case "task":
		return "Task", map[string]any{"subagent_type": str("agent"), "prompt": str("prompt")}
	case "explore":
		return "Task", map[string]any{"subagent_type": "explore", "prompt": str("task")}
	}
	return tool, maps.Clone(in)
}

// fromClaude is the input of a call of tool after a hook of the claude
// format changed it: ours is the input before (the agent's names),
// theirs the changed one in Claude Code's names. A parameter Claude Code
// has no name for keeps its value.
func fromClaude(tool string, ours, theirs map[string]any, dir string) map[string]any {
	out := maps.Clone(ours)
	set := func(to, from string, conv func(any) any) {
		if v, ok := theirs[from]; ok {
			if conv != nil {
				v = conv(v)
			}
			out[to] = v
		}
	}
	rel := func(v any) any { return relative(text(v), dir) }
	switch tool {
	case "write_file":
		set("file_path", "file_path", rel)
		switch text(ours["operation_type"]) {
		case "replace":
			set("old_text", "old_string", nil)
			set("content", "new_string", nil)
			set("replace_all", "replace_all", nil)
		case "partial":
			set("content", "new_string", nil)
			set("start_line", "start_line", nil)
			set("end_line", "end_line", nil)
		default:
			set("content", "content", nil)
		}
	case "run_command":
		set("command", "command", nil)
		set("timeout", "timeout", func(v any) any { // milliseconds to seconds, rounded up
			ms, _ := number(v)
			return int64(math.Ceil(float64(ms) / 1000))
		})
		set("background", "run_in_background", nil)
	case "read_file":
		set("file_path", "file_path", rel)
		set("start_line", "offset", nil)
		if s, ok := number(theirs["offset"]); ok {
			if n, ok := number(theirs["limit"]); ok && n > 0 {
				out["end_line"] = s + n - 1
			}
		}
	case "search_files":
		set("pattern", "pattern", nil)
		set("path", "path", rel)
		set("glob", "glob", nil)
	case "list_directory":
		set("path", "path", rel)
	case "web_fetch":
		set("url", "url", nil)
	case "task":
		set("agent", "subagent_type", nil)
		set("prompt", "prompt", nil)
	case "explore":
		set("task", "prompt", nil)
	default:
		return theirs
	}
	return out
}

// claudeResponse is a call's answer as Claude Code's tool would have
// given it, where the two differ in shape (a write, a command).
func claudeResponse(tool string, in map[string]any, r Response, dir string) any {
	switch tool {
	case "write_file":
		_, m := toClaude(tool, in, dir)
		return map[string]any{"filePath": m["file_path"], "success": r.Code == ""}
	case "run_command":
		return map[string]any{"stdout": r.Content, "stderr": "", "interrupted": r.Code == "TOOL_INTERRUPTED"}
	}
	return r
}

// relative is path p made relative to dir when it lies inside it; any
// other stays as it is (and the tool refuses it as outside the project).
func relative(p, dir string) string {
	if !filepath.IsAbs(p) {
		return p
	}
	r, err := filepath.Rel(dir, p)
	if err != nil || r == ".." || strings.HasPrefix(r, "../") {
		return p
	}
	return r
}

// text is a parameter's value as text.
func text(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	}
	return Value(v)
}

// number is a parameter's value as a whole number, if it is one.
func number(v any) (int64, bool) {
	switch x := v.(type) {
	case int:
		return int64(x), true
	case int64:
		return x, true
	case float64:
		return int64(x), x == math.Trunc(x)
	case json.Number:
		n, err := x.Int64()
		return n, err == nil
	case string:
		n, err := strconv.ParseInt(x, 10, 64)
		return n, err == nil
	}
	return 0, false
}

// Value is a parameter's value as the text of a call's parameter, as the
// model would have written it: a string as it is, a number or a boolean
// in words, anything else as JSON.
func Value(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	case bool:
		return strconv.FormatBool(x)
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return strconv.FormatInt(int64(x), 10)
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	b, _ := json.Marshal(v)
	return string(b)
}
