// Package sandbox is the project folder as every part of the agent may
// touch it: Root. The file tools, the notes export, audio files, skills,
// custom commands, undo and restore all go through it.
//
// The promises, in order of importance:
//
//   - Never lose data. Every replacement of a file is atomic (temp file
//     in the same folder, fsync, rename, fsync of the folder), keeps the
//     file's permission bits, and puts the old content under
//     .agent/backups first, in a change set that undo and restore
//     (restore.go, beside the backups they read: backups.go and the store
//     in package backup) take back. A backup whose signature is not the
//     user's key is not restored without force.
//   - Never leave the project. Every path goes through Root, which refuses
//     escapes, protected folders (.git, .agent), special files and names
//     no real file needs, and opens files through verified folder handles
//     (see Root). The agent's own state folders are never followed out.
//   - No secret. Files that usually hold secrets, and other names of
//     them (hard links, symlinks), are refused unless the user allows
//     them (Options.AllowSecrets).
//
// What a refusal says is a Refusal: a protocol code and one line the
// model can act on. Package fsedit builds the model's file tools on this
// package; other writers of project files use Root.Put.
package sandbox
