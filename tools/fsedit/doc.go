// Package fsedit holds the agent's file tools: read_file, write_file,
// list_directory and search_files, the sandbox they share (Root), and the
// backups that make every overwrite undoable.
//
// The promises, in order of importance:
//
//   - Never lose data. Every write is atomic (temp file in the same folder,
//     fsync, rename, fsync of the folder), keeps the file's line endings,
//     final-newline state and permission bits, and puts the old content
//     under .agent/backups first. A write whose view of the file is stale
//     (not read in this conversation, or changed on disk since) is refused.
//   - Never leave the project. Every path goes through Root, which refuses
//     escapes, protected folders (.git, .agent) and special files, and
//     opens files through verified folder handles (see Root).
//   - Teach the model. A mistake comes back as a tools.Result with a
//     protocol code and one line saying what would work instead.
//
// Per-conversation state (what the model has read) lives in a Session,
// shared by the tools NewTools builds.
package fsedit
