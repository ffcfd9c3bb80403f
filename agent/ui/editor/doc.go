// Package editor is the face of agent acp: the agent as an editor's
// agent, speaking the Agent Client Protocol (JSON-RPC 2.0, one message a
// line) on standard input and output, over the same
// conversation.Conversation the chat drives.
//
// The protocol's parts map onto the conversation's:
//
//	session/new, session/load   a Conversation in the client's folder;
//	                            load replays a saved session first
//	session/prompt              Conversation.Run, its events streamed as
//	                            session/update (updates.go, the one place
//	                            an event becomes an update); a slash
//	                            command runs the conversation's command
//	session/request_permission  the conversation's agent.Asker
//	session/set_mode            the approval policy: ask, auto, plan
//	session/cancel              the turn's context, as Esc in the chat
//	fs/read_text_file, fs/write_text_file
//	                            the file tools' fsedit.Editor, when the
//	                            client offers them (files.go)
//
// Nothing but the protocol is written to the output: the caller sends
// logs and warnings to standard error.
package editor
