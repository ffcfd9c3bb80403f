package chat

import (
	"time"

	"github.com/agentcli/agent/agent"
)

// Every message of the program that is not Bubble Tea's own.

// eventMsg is one event of the loop, tagged with the run it belongs to so
// that a late event of a stopped run is dropped.
type eventMsg struct {
	run   int
	event agent.Event
}

// runDoneMsg ends a run: the loop returned.
type runDoneMsg struct {
	run     int
	outcome *agent.Outcome
	err     error
}

// askMsg is a write waiting for approval; the answer goes to reply.
type askMsg struct {
	q     agent.Question
	reply chan<- agent.Answer
}

// commandDoneMsg is a conversation command's answer.
type commandDoneMsg struct {
	name  string
	reply Reply
	err   error
}

// filesMsg carries the project's files for @path completion.
type filesMsg struct {
	files []string
	err   error
}

// attachedMsg is the @path attachments read for a message about to be
// sent, or why one could not be.
type attachedMsg struct {
	prompt     string   // the message with its attachments
	shown      string   // the message as the user typed it
	raw        string   // the message without its attachments
	notes      []string // one line per attachment
	fromEditor bool     // the editor's text (kept there on failure)
	err        error
}

// editorStartMsg says the message is in file, ready for the editor.
type editorStartMsg struct {
	file   string
	editor []string // the program and its arguments
}

// editorDoneMsg is the text back from $EDITOR.
type editorDoneMsg struct {
	text string
	err  error
}

// tickMsg drives the spinner and the elapsed time of running cards.
type tickMsg time.Time

// quitArmExpiredMsg ends the window in which a second Ctrl+C quits.
type quitArmExpiredMsg struct{ armed int }
