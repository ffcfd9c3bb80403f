package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestDemoChatToolsRunsTheWholeLoopOffline(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // its backups are signed with a key made there
	var out, errOut bytes.Buffer
	io := &streams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}
	root := newRootCmd(newFactory(io))
	root.SetArgs([]string{"demo-chat-tools"})
	if err := root.ExecuteContext(t.Context()); err != nil {
		t.Fatalf("demo: %v\n%s", err, errOut.String())
	}
	got := out.String()
	for _, want := range []string{
		"── user",
		demoPrompt,
		"── model, reply 1",
		`<tool_call name="read_file" id="1">`,
		// The response carries README.md as read by the real file tool.
		`<tool_response id="1">`,
		"A tiny project for the agent demo.",
		`<tool_response id="2">`,
		`<tool_response id="3">`,
		"- add a licence file",
		"── model, reply 3",
		"3 model calls, 3 tool calls; files changed: README.md",
		"    ## Usage",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("demo output lacks %q", want)
		}
	}
	if strings.Contains(got, `code="`) {
		t.Errorf("a demo call failed:\n%s", got)
	}
	if t.Failed() {
		t.Logf("output:\n%s", got)
	}
}
