// Package agent runs the conversation loop of protocol.md §4: it sends the
// system prompt and the conversation to an llm.Model, streams the reply
// through the xmlcall Scanner, runs the tool calls it finds in order, and
// sends all their responses back as one user turn, until the model answers
// without calling a tool or the iteration limit is reached.
//
// The loop prints nothing. Everything it does is reported as an Event
// (text delta, call recognised, call result, usage, retry, error, done) to
// a callback, which the command-line output modes and the terminal UI turn
// into what the user sees.
//
// Two records are kept on disk under the project's .agent folder:
//
//   - sessions/<id>.jsonl: the conversation, one JSON object per line,
//     appended as each message completes, so a crash loses at most the
//     message in flight and a session can be resumed.
//   - audit.jsonl: one line per tool call (time, session, call id, tool,
//     shortened parameters, outcome, code, duration), never holding a key.
//
// The package knows nothing of cobra, terminals or concrete providers: a
// call that writes is decided by the conversation's Approval, an ordered
// list of named rules that asks a person through an Asker when none
// decides, and the model is any llm.Model.
package agent
