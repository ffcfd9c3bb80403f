// Package notes is the agent's notes store: notes with a title, content,
// a folder and tags, found again by ranked full-text search and, with an
// Embedder, by meaning. It holds the Store interface (with a conformance
// suite in notestest that every backend must pass), the SQLite backend
// (FTS5, pure Go, a project's own file), the PostgreSQL backend (pgx; a
// database shared by many projects, each in its space), the query
// parser both backends share, the chunking, embedding and hybrid ranking
// of search by meaning, the note_* tools the model calls, and the REST
// handler `agent serve` mounts at /notes.
//
// Folders are paths normalised to "/a/b/" (the root is "/"); a folder
// filter covers its subfolders. Tags are a set of short lowercase labels.
// Search excerpts mark each match between MarkStart and MarkEnd, which the
// caller turns into what its reader sees (Highlight).
package notes
