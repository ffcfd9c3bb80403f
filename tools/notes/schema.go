package notes

// migrations are the schema changes, in order; migrations[i] takes the
// database from user_version i to i+1. Never edit one that has shipped:
// add the next.
// notesTriggers keep the search index and the tag table in step with
// the notes table; migration 2 recreates them on the rebuilt table.
const notesTriggers = `CREATE TRIGGER notes_ai AFTER INSERT ON notes BEGIN
	INSERT INTO notes_fts(rowid, title, content) VALUES (new.id, new.title, new.content);
	INSERT INTO note_tags(note_id, tag) SELECT new.id, value FROM json_each(new.tags);
END;
CREATE TRIGGER notes_ad AFTER DELETE ON notes BEGIN
	INSERT INTO notes_fts(notes_fts, rowid, title, content) VALUES ('delete', old.id, old.title, old.content);
	DELETE FROM note_tags WHERE note_id = old.id;
END;
CREATE TRIGGER notes_au_text AFTER UPDATE OF title, content ON notes BEGIN
	INSERT INTO notes_fts(notes_fts, rowid, title, content) VALUES ('delete', old.id, old.title, old.content);
	INSERT INTO notes_fts(rowid, title, content) VALUES (new.id, new.title, new.content);
END;
CREATE TRIGGER notes_au_tags AFTER UPDATE OF tags ON notes BEGIN
	DELETE FROM note_tags WHERE note_id = old.id;
	INSERT INTO note_tags(note_id, tag) SELECT new.id, value FROM json_each(new.tags);
END;`

var migrations = []string{
	// 1: notes, their tags, the history of replaced versions, and the
	// full-text index. The index is an external-content FTS5 table (the
	// text is stored once, in notes) kept in step by triggers, so no
	// write can update a note without its index. Title matches rank
	// above content matches: bm25 weights 5 and 1.
	`CREATE TABLE notes (
	id         INTEGER PRIMARY KEY,
	title      TEXT NOT NULL,
	content    TEXT NOT NULL,
	folder     TEXT NOT NULL DEFAULT '/',
	tags       TEXT NOT NULL DEFAULT '[]',
	session    TEXT NOT NULL DEFAULT '',
	created_at INTEGER NOT NULL,
	updated_at INTEGER NOT NULL
);
CREATE INDEX notes_folder ON notes(folder);
CREATE INDEX notes_updated ON notes(updated_at);
CREATE TABLE note_tags (
	note_id INTEGER NOT NULL,
	tag     TEXT NOT NULL,
	PRIMARY KEY (note_id, tag)
) WITHOUT ROWID;
CREATE INDEX note_tags_tag ON note_tags(tag);
CREATE TABLE note_history (
	id          INTEGER PRIMARY KEY,
	note_id     INTEGER NOT NULL,
	op          TEXT NOT NULL,
	title       TEXT NOT NULL,
	content     TEXT NOT NULL,
	folder      TEXT NOT NULL,
	tags        TEXT NOT NULL,
	updated_at  INTEGER NOT NULL,
	replaced_at INTEGER NOT NULL,
	session     TEXT NOT NULL DEFAULT '',
	change_set  TEXT NOT NULL DEFAULT ''
);
CREATE INDEX note_history_note ON note_history(note_id);
CREATE VIRTUAL TABLE notes_fts USING fts5(
	title, content,
	content='notes', content_rowid='id',
	tokenize='unicode61 remove_diacritics 2'
);
INSERT INTO notes_fts(notes_fts, rank) VALUES ('rank', 'bm25(5.0, 1.0)');
` + notesTriggers,
	// 2: a deleted note's id never comes back. A plain INTEGER PRIMARY
	// KEY reuses the highest id once that note is deleted, so "note 7"
	// in a session log, an undo entry or the history would name another
	// note. AUTOINCREMENT needs the table rebuilt: copy it with its ids,
	// drop the old one (its indexes and triggers go with it; the index
	// table is addressed by name and rowid, both kept) and recreate them.
	// The sequence starts above every id ever used, the deleted ones the
	// history remembers included.
	`CREATE TABLE notes_v2 (
	id         INTEGER PRIMARY KEY AUTOINCREMENT,
	title      TEXT NOT NULL,
	content    TEXT NOT NULL,
	folder     TEXT NOT NULL DEFAULT '/',
	tags       TEXT NOT NULL DEFAULT '[]',
	session    TEXT NOT NULL DEFAULT '',
	created_at INTEGER NOT NULL,
	updated_at INTEGER NOT NULL
);
INSERT INTO notes_v2 (id, title, content, folder, tags, session, created_at, updated_at)
	SELECT id, title, content, folder, tags, session, created_at, updated_at FROM notes;
DROP TABLE notes;
ALTER TABLE notes_v2 RENAME TO notes;
CREATE INDEX notes_folder ON notes(folder);
CREATE INDEX notes_updated ON notes(updated_at);
DELETE FROM sqlite_sequence WHERE name = 'notes';
INSERT INTO sqlite_sequence (name, seq) VALUES ('notes', max(
	coalesce((SELECT max(id) FROM notes), 0),
	coalesce((SELECT max(note_id) FROM note_history), 0)));
` + notesTriggers,
	// 3: search as people type. The index stems words (porter over
	// unicode61, diacritics removed), so "cache" finds "caches", and
	// holds the tags and the folder, so a tag finds its notes. It is
	// rebuilt from the notes in place. A bulk import's terms are kept in
	// memory up to 16 MiB (not 1 MiB) before they are written, so fewer
	// small segments are made and merged. And the chunks of notes with
	// their vectors, for search by meaning: the vectors in a table of
	// their own, so that the scan of the chunks' sign bits reads small
	// rows, not a page per vector.
	`DROP TRIGGER notes_ai;
DROP TRIGGER notes_ad;
DROP TRIGGER notes_au_text;
DROP TRIGGER notes_au_tags;
DROP TABLE notes_fts;
CREATE VIRTUAL TABLE notes_fts USING fts5(
	title, content, tags, folder,
	content='notes', content_rowid='id',
	tokenize='porter unicode61 remove_diacritics 2'
);
INSERT INTO notes_fts(notes_fts, rank) VALUES ('rank', 'bm25(5.0, 1.0, 4.0, 2.0)');
INSERT INTO notes_fts(notes_fts, rank) VALUES ('hashsize', 16777216);
INSERT INTO notes_fts(notes_fts) VALUES ('rebuild');
CREATE TABLE note_chunks (
	id         INTEGER PRIMARY KEY,
	note_id    INTEGER NOT NULL,
	seq        INTEGER NOT NULL,
	model      TEXT NOT NULL,
	span_start INTEGER NOT NULL,
	span_end   INTEGER NOT NULL,
	bits       BLOB NOT NULL
);
CREATE INDEX note_chunks_note ON note_chunks(note_id, model);
CREATE INDEX note_chunks_model ON note_chunks(model);
CREATE TABLE note_vectors (
	chunk_id INTEGER PRIMARY KEY,
	vec      BLOB NOT NULL
);
CREATE TRIGGER note_chunks_ad AFTER DELETE ON note_chunks BEGIN
	DELETE FROM note_vectors WHERE chunk_id = old.id;
END;
` + notesTriggersV3,
}

// notesInsertTriggerV3 indexes a new note. A bulk import drops it for
// the time of its transaction and indexes all its notes in one statement
// (Import).
const notesInsertTriggerV3 = `CREATE TRIGGER notes_ai AFTER INSERT ON notes BEGIN
	INSERT INTO notes_fts(rowid, title, content, tags, folder) VALUES (new.id, new.title, new.content, new.tags, new.folder);
	INSERT INTO note_tags(note_id, tag) SELECT new.id, value FROM json_each(new.tags);
END;`

// notesTriggersV3 are the triggers from migration 3 on: the index holds
// the tags and the folder too, and a note's chunks go when its title or
// content changes (the writer that changed them stores new ones in the
// same transaction, or leaves the note for reindex).
const notesTriggersV3 = notesInsertTriggerV3 + `
CREATE TRIGGER notes_ad AFTER DELETE ON notes BEGIN
	INSERT INTO notes_fts(notes_fts, rowid, title, content, tags, folder) VALUES ('delete', old.id, old.title, old.content, old.tags, old.folder);
	DELETE FROM note_tags WHERE note_id = old.id;
	DELETE FROM note_chunks WHERE note_id = old.id;
END;
CREATE TRIGGER notes_au_text AFTER UPDATE OF title, content, tags, folder ON notes BEGIN
	INSERT INTO notes_fts(notes_fts, rowid, title, content, tags, folder) VALUES ('delete', old.id, old.title, old.content, old.tags, old.folder);
	INSERT INTO notes_fts(rowid, title, content, tags, folder) VALUES (new.id, new.title, new.content, new.tags, new.folder);
END;
CREATE TRIGGER notes_au_tags AFTER UPDATE OF tags ON notes BEGIN
	DELETE FROM note_tags WHERE note_id = old.id;
	INSERT INTO note_tags(note_id, tag) SELECT new.id, value FROM json_each(new.tags);
END;
CREATE TRIGGER notes_au_chunks AFTER UPDATE OF title, content ON notes BEGIN
	DELETE FROM note_chunks WHERE note_id = old.id;
END;`
