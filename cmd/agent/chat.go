package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/conversation"
	"github.com/agentcli/agent/agent/ui/chat"
)

// newChatCmd is `agent chat [PROMPT]`: the interactive chat; runF, when
// set, runs instead (tests of the flags).
func newChatCmd(d *factory, runF func(*runOptions) error) *cobra.Command {
	o := &runOptions{io: d.io}
	cmd := &cobra.Command{
		Use:   "chat [prompt]",
		Short: "Chat with the agent in this project (the default on a terminal)",
		Long: `chat opens the interactive chat in the project folder. The conversation
stays in the terminal's scrollback; only the reply being written, the tool
cards, a pending approval and the input are redrawn.

Enter sends; Shift+Enter, Alt+Enter or Ctrl+J start a new line. @path
attaches a file, /help lists the commands, Shift+Tab cycles the approval
mode (ask, auto, plan), Esc stops a reply and Ctrl+C twice quits. A
question of the model is a choice list: arrows and Enter, or type your
own answer; Esc declines. With [chat] notify (auto, bell, osc9, off) the
terminal rings when it lost focus and an approval or a question waits,
or a turn of over 10 s ended.`,
		Example: `  agent
  agent chat "explain the build"
  agent chat --continue`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.prompt = strings.Join(args, " ")
			if runF != nil {
				return runF(o)
			}
			return runChat(cmd.Context(), d, o)
		},
	}
	conversationFlags(cmd, o, "per message")
	return cmd
}

// setRootChat makes `agent` with no arguments open the chat on a terminal;
// with no terminal it prints the help, which points to `agent run`.
func setRootChat(root *cobra.Command, d *factory) {
	o := &runOptions{io: d.io}
	conversationFlags(root, o, "per message")
	root.Args = cobra.NoArgs
	root.RunE = func(cmd *cobra.Command, _ []string) error {
		if !d.io.stdinTTY || !d.io.stdoutTTY {
			fmt.Fprintln(d.io.ErrOut, "agent: no terminal for the chat; use 'agent run \"PROMPT\"' to answer one request (see below)")
			return cmd.Help()
		}
		return runChat(cmd.Context(), d, o)
	}
}

// runChat opens the chat, sending o.prompt first when there is one.
func runChat(ctx context.Context, d *factory, o *runOptions) error {
	chat.Prepare() // before the conversation is built: see its comment
	if o.continueLast && o.sessionID != "" {
		return usageErrorf("use --continue or --session, not both")
	}
	if o.approval != "" {
		if _, err := agent.ParsePolicy(o.approval); err != nil {
			return usageError{err}
		}
	}
	root, err := d.workFolder(o.dir)
	if err != nil {
		return err
	}
	o.dir = root
	conv, err := d.builder().New(ctx, o.conversation())
	if err != nil {
		return err
	}
	defer conv.Close()
	progs := d.programs(root, conv.Config())
	tmux, _ := progs.Find("tmux") // "": the chat never asks tmux
	env := d.environ()
	userDir := userConfigDir(env)
	m := chat.New(ctx, chat.Options{
		Conversation: conv,
		Prompt:       o.prompt,
		Root:         root,
		ConfigDir:    userDir,
		ReadCommand:  conv.ReadCommand,
		Editor:       func() ([]string, error) { return progs.Editor(d.environ()) },
		Tmux:         tmux,
		Programs:     progs,
		Notify:       chat.NotifyWay(conv.Config().Chat.Notify, func(k string) string { return env[k] }),
	})
	conv.SetAsker(m.Asker(), "") // before the first run
	conv.SetUserAsker(m.UserAsker())
	return chat.Run(ctx, m, d.io.In, d.io.Out)
}

// conversation is the conversation the flags ask for: the one place
// that turns run's and chat's flags into the conversation's options.
func (o *runOptions) conversation() conversation.Options {
	return conversation.Options{
		Dir: o.dir,
		Flags: config.Flags{
			Provider:      o.provider,
			Model:         o.model,
			Approval:      o.approval,
			MaxIterations: o.maxIterations,
			Reasoning:     o.reasoning,
		},
		SessionID: o.sessionID,
		Continue:  o.continueLast,
		Policy:    o.policy(),
	}
}
