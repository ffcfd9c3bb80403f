// Package fsedit holds the agent's file tools: read_file, write_file,
// list_directory and search_files, on the project's sandbox (package
// sandbox: Root, its checks, atomic replacement and backups).
//
// The promises, beside the sandbox's:
//
//   - Never lose data. A write keeps the file's line endings,
//     final-newline state, byte-order mark and encoding (UTF-8 or UTF-16).
//     A write whose view of the file is stale (not read in this
//     conversation, changed on disk since, or its lines moved by an
//     earlier write of the same reply) is refused.
//   - Every text file. Whether a file is text is decided by its content,
//     never by an extension list.
//   - Teach the model. A mistake comes back as a tools.Result with a
//     protocol code and one line saying what would work instead; so does
//     every file system error about a path. write_file previews every
//     operation as a full diff through the same checks (tools.Previewer).
//
// Per-conversation state (what the model has read, and where the current
// reply's writes moved lines) lives in a Session, shared by the tools
// NewTools builds.
package fsedit
