package tui

import (
	"context"
	"errors"

	"github.com/agentcli/agent/agent"
)

// ErrUnsupported is what a Backend returns for an operation it does not
// offer; the chat then says so in one line.
var ErrUnsupported = errors.New("not available in this build")

// Backend is what the chat needs from the conversation. cmd/agent adapts
// the shared loop to it; tests use a scripted one. Run is called from a
// goroutine of its own, never concurrently with itself; the other methods
// are called from commands, between runs (Attach and Files also while the
// user types).
type Backend interface {
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
	// Command runs one of the conversation's commands (see CommandNames)
	// with its argument text and returns what to show.
	Command(ctx context.Context, name, args string) (Reply, error)
}

// Info is what the status line shows.
type Info struct {
	Provider, Model string
	Folder          string // the project folder, as the user knows it
	Session         string // the session id
	Policy          agent.Policy
	// Tokens in and out so far in this conversation.
	TokensIn, TokensOut int
}

// Reply is the answer of a backend command.
type Reply struct {
	// Text is shown in the chat (markdown); may be empty.
	Text string
	// Choices, when set, lets the user pick one; the pick is sent back
	// as Command(Name, choice.Value).
	Choices []Choice
	// Cleared says the conversation was replaced (/clear, /resume,
	// /rewind): the chat starts a new section.
	Cleared bool
	// Input, when set, replaces the text of the input box (/rewind gives
	// back the message of the turn it went back before, to edit and
	// send again).
	Input string
}

// Choice is one entry of a picker.
type Choice struct {
	Label, Value string
}

// The commands a Backend implements through Command. The chat itself
// handles /help, /exit and the custom commands.
const (
	CmdClear   = "clear"   // start a new conversation
	CmdTools   = "tools"   // list the tools
	CmdModel   = "model"   // switch provider/model: args "provider/model" or "model"
	CmdUndo    = "undo"    // revert the last turn's files, tell the model
	CmdRedo    = "redo"    // put back what the last undo reverted
	CmdRewind  = "rewind"  // no args: Choices of turns; args: the turn to go back to
	CmdBackups = "backups" // list the change sets
	CmdResume  = "resume"  // no args: Choices of sessions; args: the session id
	CmdPrompt  = "prompt"  // show the system prompt
	CmdCompact = "compact" // compact the conversation
	CmdNotes   = "notes"   // search the notes: args the query
)
