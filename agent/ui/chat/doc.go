// Package chat is the interactive chat: a Bubble Tea program that sends the
// user's messages to a Conversation, shows the loop's events as they stream
// (prose as markdown, a card per tool call, the approval dialog) and
// answers the loop's approval questions.
//
// The chat is inline, not full-screen: every finished piece (a message, a
// rendered block of the reply, a finished tool card) is printed once into
// the terminal's own scrollback, and only the live part (the open block of
// the streaming reply, running cards, a pending question, the editor and
// the status line) is redrawn. Rendering cost therefore does not grow with
// the conversation.
//
// The package never runs tools or talks to providers: everything it does
// to the conversation goes through the Conversation interface, which
// *conversation.Conversation implements (the chat lists and runs the
// conversation's own table of slash commands). Update does no I/O; the
// conversation is called from commands (tea.Cmd), and the loop's events
// and questions come back as messages through one inbox channel.
//
// Start-up is kept cheap: nothing here runs at package init, and the
// markdown renderer and the code highlighter are small and build their
// tables on first use, so `agent run`, which links this package, does
// not pay for them.
package chat
