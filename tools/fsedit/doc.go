// Package fsedit holds the agent's file tools: read_file, write_file,
// list_directory and search_files, the sandbox they share (Root), and the
// backups that make every overwrite undoable.
//
// The promises, in order of importance:
//
//   - Never lose data. Every write is atomic (temp file in the same folder,
//     fsync, rename, fsync of the folder), keeps the file's line endings,
//     final-newline state, byte-order mark, encoding (UTF-8 or UTF-16) and
//     permission bits, and puts the old content under .agent/backups
//     first. A write whose view of the file is stale (not read in this
//     conversation, changed on disk since, or its lines moved by an
//     earlier write of the same reply) is refused.
//   - Never leave the project. Every path goes through Root, which refuses
//     escapes, protected folders (.git, .agent), special files and names
//     no real file needs, and opens files through verified folder handles
//     (see Root). The agent's own state folders are never followed out.
//   - Every text file, no secret. Whether a file is text is decided by its
//     content, never by an extension list; files that usually hold
//     secrets are refused unless the user allows them (Options.AllowSecrets).
//   - Teach the model. A mistake comes back as a tools.Result with a
//     protocol code and one line saying what would work instead; so does
//     every file system error about a path. write_file previews every
//     operation as a full diff through the same checks (tools.Previewer).
//
// Per-conversation state (what the model has read, and where the current
// reply's writes moved lines) lives in a Session, shared by the tools
// NewTools builds. Other tools that write project files (audio, notes
// export) use Root.Put, which applies the same checks and backups.
package fsedit
