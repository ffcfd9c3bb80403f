// Package notes is the agent's notes store: notes with a title, content,
// a folder and tags, found again by ranked full-text search. It holds the
// Store interface (with a conformance suite in notestest that every
// backend must pass), the SQLite backend (FTS5, pure Go), the note_* tools
// the model calls, and the REST handler `agent serve` mounts at /notes.
//
// Folders are paths normalised to "/a/b/" (the root is "/"); a folder
// filter covers its subfolders. Tags are a set of short lowercase labels.
// Search excerpts mark each match between MarkStart and MarkEnd, which the
// caller turns into what its reader sees (Highlight).
package notes
