package notes

// pgSchema is the PostgreSQL schema (namespace) that holds the notes
// tables, so that they never meet a table of the same name that another
// program keeps in the same database.
const pgSchema = "agent_notes"

// pgMigrations are the PostgreSQL schema changes, in order;
// pgMigrations[i] takes the database from version i to i+1 (the row of
// agent_notes.schema_version). Never edit one that has shipped: add the
// next.
var pgMigrations = []string{
	// 1: the seed's schema, with spaces. A note's id is unique within its
	// space and never reused there: spaces.next_id only grows. The search
	// vector is kept by a trigger, weighted title A, content B, tags C,
	// folder D, in the english configuration (stemming). Folders compare
	// byte-wise (COLLATE "C") so that a folder's range holds exactly its
	// subfolders. A chunk's vector is float4[] (TOASTed, read only for
	// the candidates), and its sign bits serve the Hamming-distance scan
	// that picks the candidates (no pgvector needed).
	`CREATE TABLE agent_notes.spaces (
	name    text PRIMARY KEY,
	next_id bigint NOT NULL DEFAULT 1
);
CREATE TABLE agent_notes.notes (
	space      text NOT NULL,
	id         bigint NOT NULL,
	title      text NOT NULL,
	content    text NOT NULL,
	folder     text COLLATE "C" NOT NULL DEFAULT '/',
	tags       text[] NOT NULL DEFAULT '{}',
	session    text NOT NULL DEFAULT '',
	created_at timestamptz NOT NULL,
	updated_at timestamptz NOT NULL,
	search     tsvector NOT NULL DEFAULT ''::tsvector,
	PRIMARY KEY (space, id)
);
CREATE INDEX notes_search ON agent_notes.notes USING gin (search);
CREATE INDEX notes_folder ON agent_notes.notes (space, folder);
CREATE INDEX notes_tags ON agent_notes.notes USING gin (tags);
CREATE INDEX notes_updated ON agent_notes.notes (space, updated_at DESC, id DESC);
CREATE FUNCTION agent_notes.notes_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	NEW.search :=
		setweight(to_tsvector('english', NEW.title), 'A') ||
		setweight(to_tsvector('english', NEW.content), 'B') ||
		setweight(to_tsvector('english', array_to_string(NEW.tags, ' ')), 'C') ||
		setweight(to_tsvector('english', translate(NEW.folder, '/', ' ')), 'D');
	RETURN NEW;
END $$;
CREATE TRIGGER notes_search BEFORE INSERT OR UPDATE OF title, content, tags, folder ON agent_notes.notes
	FOR EACH ROW EXECUTE FUNCTION agent_notes.notes_search();
CREATE TABLE agent_notes.note_history (
	hid         bigserial PRIMARY KEY,
	space       text NOT NULL,
	note_id     bigint NOT NULL,
	op          text NOT NULL,
	title       text NOT NULL,
	content     text NOT NULL,
	folder      text NOT NULL,
	tags        text[] NOT NULL,
	updated_at  timestamptz NOT NULL,
	replaced_at timestamptz NOT NULL,
	session     text NOT NULL DEFAULT '',
	change_set  text NOT NULL DEFAULT ''
);
CREATE INDEX note_history_note ON agent_notes.note_history (space, note_id, hid);
CREATE TABLE agent_notes.note_chunks (
	space      text NOT NULL,
	note_id    bigint NOT NULL,
	seq        int NOT NULL,
	model      text NOT NULL,
	span_start int NOT NULL,
	span_end   int NOT NULL,
	bits       bit varying NOT NULL,
	vec        float4[] NOT NULL,
	PRIMARY KEY (space, note_id, seq),
	FOREIGN KEY (space, note_id) REFERENCES agent_notes.notes (space, id) ON DELETE CASCADE
);
CREATE INDEX note_chunks_model ON agent_notes.note_chunks (model, space);
CREATE FUNCTION agent_notes.drop_chunks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	DELETE FROM agent_notes.note_chunks WHERE space = OLD.space AND note_id = OLD.id;
	RETURN NULL;
END $$;
CREATE TRIGGER notes_drop_chunks AFTER UPDATE OF title, content ON agent_notes.notes
	FOR EACH ROW WHEN (OLD.title IS DISTINCT FROM NEW.title OR OLD.content IS DISTINCT FROM NEW.content)
	EXECUTE FUNCTION agent_notes.drop_chunks();`,
}
