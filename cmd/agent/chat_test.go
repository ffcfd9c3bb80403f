package main

import (
	"bytes"
	"context"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/conversation"
)

// With no terminal, `agent` alone cannot chat: it says so, points to
// `agent run` and prints the help, successfully.
func TestAgentWithoutTerminalPrintsHelp(t *testing.T) {
	var out, errOut bytes.Buffer
	io := &streams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}
	if code := execute(context.Background(), io, nil); code != exitOK {
		t.Fatalf("exit %d; stderr: %s", code, errOut.String())
	}
	if !strings.Contains(errOut.String(), "agent run") {
		t.Errorf("stderr does not point to agent run: %q", errOut.String())
	}
	if !strings.Contains(out.String(), "chat") || !strings.Contains(out.String(), "Usage:") {
		t.Errorf("no help on stdout: %q", out.String())
	}
}

func TestChatFlagsChecked(t *testing.T) {
	var out, errOut bytes.Buffer
	io := &streams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut, stdinTTY: true, stdoutTTY: true}
	if code := execute(context.Background(), io, []string{"chat", "--continue", "--session", "x"}); code != exitUsage {
		t.Errorf("--continue with --session: exit %d, want %d", code, exitUsage)
	}
	if code := execute(context.Background(), io, []string{"chat", "--approval", "sometimes"}); code != exitUsage {
		t.Errorf("bad --approval: exit %d, want %d", code, exitUsage)
	}
}

// TestRunAndChatShareTheConversationFlags: run and chat have the same
// flags for the conversation, and turn them into the same options.
func TestRunAndChatShareTheConversationFlags(t *testing.T) {
	args := []string{"--provider", "ollama", "--model", "m", "--max-iterations", "4", "--dir", "/tmp", "--session", "s1", "--yes"}
	d := newFactory(&streams{In: strings.NewReader(""), Out: io.Discard, ErrOut: io.Discard})
	var got []conversation.Options
	capture := func(o *runOptions) error { got = append(got, o.conversation()); return nil }
	chat := newChatCmd(d, capture)
	chat.SetArgs(append(args, "hello"))
	run := newRunCmd(d, capture)
	run.SetArgs(append(args, "hello"))
	for _, c := range []*cobra.Command{chat, run} {
		if err := c.Execute(); err != nil {
			t.Fatalf("%s: %v", c.Name(), err)
		}
	}
	want := conversation.Options{Dir: "/tmp", SessionID: "s1", Policy: agent.PolicyAuto,
		Flags: config.Flags{Provider: "ollama", Model: "m", MaxIterations: 4}}
	if len(got) != 2 || !reflect.DeepEqual(got[0], want) || !reflect.DeepEqual(got[1], want) {
		t.Errorf("options = %+v, want both %+v", got, want)
	}
}
