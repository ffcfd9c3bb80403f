package chat

import (
	"context"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/conversation"
	"github.com/agentcli/agent/tools"
)

// Conversation is what the chat needs of the conversation it shows;
// *conversation.Conversation is one, and the chat's tests drive that real
// thing. Run is called from a goroutine of its own, never concurrently
// with itself; the commands run between runs (Attach and Files also while
// the user types); SetPolicy and Info are called at any time.
type Conversation interface {
	// Run sends prompt as the next user turn and reports every event of
	// the loop to emit until the run ends.
	Run(ctx context.Context, prompt string, emit func(agent.Event)) (*agent.Outcome, error)
	// Info describes the conversation for the status line.
	Info() Info
	// SetPolicy changes the approval policy, from the next call that
	// needs approval on (Shift+Tab; it may come while a run goes on).
	SetPolicy(p agent.Policy)
	// Files lists the project's files (project-relative, slash
	// separated) for @path completion.
	Files(ctx context.Context) ([]string, error)
	// Attach reads a project file through the sandbox, so that it
	// counts as read for the write guards, and returns the text to
	// include in the message.
	Attach(ctx context.Context, path string) (string, error)
	// AttachImage fits an image the person chose (data, named source)
	// to the model and sends it with the next message; a model that
	// sees no images gets agent.ErrNoImages.
	AttachImage(ctx context.Context, data []byte, source string) error
	// Recap returns the conversation's last n turns and how many it
	// has, shown when the chat continues an earlier conversation.
	Recap(n int) ([]Exchange, int)
	// Commands are the conversation's slash commands; the chat adds
	// its own (/help, /exit, the custom commands) around them.
	Commands() []Command
	// Todos is the model's plan as the conversation keeps it
	// (todo_write), read when a turn starts.
	Todos() []tools.Todo
}

// The conversation's types the chat shows.
type (
	// Info is what the status line shows.
	Info = conversation.Info
	// Command is one of the conversation's slash commands.
	Command = conversation.Command
	// Reply is a command's answer.
	Reply = conversation.Reply
	// Choice is one entry of a picker.
	Choice = conversation.Choice
	// Exchange is one turn of a recap.
	Exchange = conversation.Exchange
)
