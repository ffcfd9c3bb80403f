package notes

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"strings"

	"github.com/agentcli/agent/tools"
)

// HandlerOptions configure the REST handler.
type HandlerOptions struct {
	// ReadOnly refuses every change with 403 (serving without
	// --allow-writes).
	ReadOnly bool
	// MaxBody bounds a request body; DefaultMaxBody when 0. A batch may
	// be BatchMaxBody (the server in front may bound it lower).
	MaxBody int64
}

// BatchMaxBody bounds the body of POST /notes/batch, and MaxBatch the
// notes in it.
const (
	BatchMaxBody = 64 << 20
	MaxBatch     = 10_000
)

// DefaultMaxBody is the largest request body the handler reads: a note of
// MaxContent with room for its JSON escaping.
const DefaultMaxBody = 3 << 20

// Error codes of the REST API besides NOTE_NOT_FOUND and
// TOOL_SCHEMA_INVALID.
const (
	CodeBadJSON        = "INVALID_JSON"
	CodeTooLarge       = "BODY_TOO_LARGE"
	CodeWritesDisabled = "WRITES_DISABLED"
	CodeBadID          = "INVALID_ID"
)

// NewHandler serves the notes REST API on s, under /notes (the README
// documents each route with its answers):
//
//	POST   /notes              create {title, content, folder?, tags?}     201
//	POST   /notes/batch        {"notes":[...]}: many at once, one transaction  201
//	GET    /notes              list ?folder=&tag=&limit=&offset=; with ?q= a search
//	GET    /notes/search?q=    ranked hits with excerpts (?mode=&folder=&tag=&limit=&all_spaces=)
//	GET    /notes/folders      folders with their counts
//	GET    /notes/tags         tags with their counts
//	GET    /notes/{id}         one note
//	PUT    /notes/{id}         {content, mode?, title?, folder?, tags?}
//	PATCH  /notes/{id}         any of {content|text, mode, title, folder, tags}
//	DELETE /notes/{id}         the deleted note
//
// Bodies are JSON objects; unknown fields are refused (422), as are
// invalid values; malformed JSON and an id that is not a number are 400,
// a missing note 404, a body over the limit 413, a failed embedding 502.
// Errors are {"error":{"code","message"}}. Tags may be a JSON array or a
// comma-separated string. Mount it at /notes and /notes/; authentication
// is the server's.
func NewHandler(s Store, o HandlerOptions) http.Handler {
	if o.MaxBody <= 0 {
		o.MaxBody = DefaultMaxBody
	}
	h := &handler{s: s, o: o}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /notes", h.write(h.create))
	mux.HandleFunc("POST /notes/batch", h.write(h.batch))
	mux.HandleFunc("GET /notes", h.list)
	mux.HandleFunc("GET /notes/search", h.search)
	mux.HandleFunc("GET /notes/folders", h.folders)
	mux.HandleFunc("GET /notes/tags", h.tags)
	mux.HandleFunc("GET /notes/{id}", h.get)
	mux.HandleFunc("PUT /notes/{id}", h.write(h.put))
	mux.HandleFunc("PATCH /notes/{id}", h.write(h.patch))
	mux.HandleFunc("DELETE /notes/{id}", h.write(h.delete))
	return mux
}

type handler struct {
	s Store
	o HandlerOptions
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

func writeError(w http.ResponseWriter, status int, code, msg string) {
	writeJSON(w, status, map[string]any{"error": map[string]string{"code": code, "message": msg}})
}

// fail answers a store error: the caller's mistakes with 404 or 422, the
// store's own failure with 500 and no details.
func (h *handler) fail(w http.ResponseWriter, err error, id int64) {
	switch {
	case errors.Is(err, ErrNotFound):
		writeError(w, http.StatusNotFound, CodeNotFound, fmt.Sprintf("no note with id %d", id))
	case errors.Is(err, ErrInvalid):
		writeError(w, http.StatusUnprocessableEntity, tools.CodeSchemaInvalid, strings.TrimPrefix(err.Error(), ErrInvalid.Error()+": "))
	case errors.Is(err, ErrEmbedding):
		writeError(w, http.StatusBadGateway, CodeEmbedding, "the embedding provider failed; nothing was changed: "+err.Error())
	default:
		writeError(w, http.StatusInternalServerError, "INTERNAL", "the notes store failed; see the server's log")
	}
}

func (h *handler) write(fn http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if h.o.ReadOnly {
			writeError(w, http.StatusForbidden, CodeWritesDisabled, "this server does not change notes (start it with --allow-writes)")
			return
		}
		fn(w, r)
	}
}

// decode reads one JSON object into v, strictly. It answers the request
// itself and returns false when the body is not acceptable.
func (h *handler) decode(w http.ResponseWriter, r *http.Request, v any) bool {
	return h.decodeMax(w, r, v, h.o.MaxBody)
}

func (h *handler) decodeMax(w http.ResponseWriter, r *http.Request, v any, limit int64) bool {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, limit))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil && dec.More() {
		err = errors.New("more than one JSON value")
	}
	if err == nil {
		if _, rest := dec.Token(); rest != io.EOF {
			err = errors.New("data after the JSON object")
		}
	}
	var tooLarge *http.MaxBytesError
	switch {
	case err == nil:
		return true
	case errors.As(err, &tooLarge):
		writeError(w, http.StatusRequestEntityTooLarge, CodeTooLarge, fmt.Sprintf("the body is larger than %d bytes", limit))
	case strings.HasPrefix(err.Error(), "json: unknown field"):
		writeError(w, http.StatusUnprocessableEntity, tools.CodeSchemaInvalid, strings.TrimPrefix(err.Error(), "json: "))
	default:
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			writeError(w, http.StatusUnprocessableEntity, tools.CodeSchemaInvalid, fmt.Sprintf("field %s must be %s", typeErr.Field, typeErr.Type))
			return false
		}
		writeError(w, http.StatusBadRequest, CodeBadJSON, "the body is not a JSON object: "+err.Error())
	}
	return false
}

// tagList is tags in a body: a JSON array, or a comma-separated string.
type tagList []string

// UnmarshalJSON accepts ["a","b"] and "a, b".
func (t *tagList) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*t = strings.Split(s, ",")
		return nil
	}
	var a []string
	if err := json.Unmarshal(b, &a); err != nil {
		return &json.UnmarshalTypeError{Value: string(b), Field: "tags", Type: tagsType}
	}
	*t = a
	return nil
}

var tagsType = reflect.TypeFor[[]string]()

type createBody struct {
	Title   string  `json:"title"`
	Content string  `json:"content"`
	Folder  string  `json:"folder"`
	Tags    tagList `json:"tags"`
}

func (h *handler) create(w http.ResponseWriter, r *http.Request) {
	var b createBody
	if !h.decode(w, r, &b) {
		return
	}
	n, err := h.s.Create(r.Context(), NewNote{Title: b.Title, Content: b.Content, Folder: b.Folder, Tags: b.Tags, Session: tools.Info(r.Context()).SessionID})
	if err != nil {
		h.fail(w, err, 0)
		return
	}
	w.Header().Set("Location", fmt.Sprintf("/notes/%d", n.ID))
	writeJSON(w, http.StatusCreated, n)
}

// intParam reads an optional integer query parameter.
func intParam(w http.ResponseWriter, r *http.Request, name string) (int, bool) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return 0, true
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		writeError(w, http.StatusUnprocessableEntity, tools.CodeSchemaInvalid, fmt.Sprintf("%s must be a whole number, got %q", name, short(v)))
		return 0, false
	}
	return n, true
}

func (h *handler) list(w http.ResponseWriter, r *http.Request) {
	if r.URL.Query().Has("q") {
		h.search(w, r)
		return
	}
	limit, ok1 := intParam(w, r, "limit")
	if !ok1 {
		return
	}
	offset, ok2 := intParam(w, r, "offset")
	if !ok2 {
		return
	}
	q := r.URL.Query()
	p, err := h.s.List(r.Context(), ListOptions{Folder: q.Get("folder"), Tag: q.Get("tag"), Limit: limit, Offset: offset})
	if err != nil {
		h.fail(w, err, 0)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"notes": p.Notes, "total": p.Total, "limit": clampLimit(limit), "offset": offset})
}

func (h *handler) search(w http.ResponseWriter, r *http.Request) {
	limit, ok := intParam(w, r, "limit")
	if !ok {
		return
	}
	q := r.URL.Query()
	all, err := boolParam(q.Get("all_spaces"))
	if err != nil {
		writeError(w, http.StatusUnprocessableEntity, tools.CodeSchemaInvalid, "all_spaces must be true or false")
		return
	}
	res, err := h.s.Search(r.Context(), SearchOptions{Query: q.Get("q"), Folder: q.Get("folder"), Tag: q.Get("tag"), Limit: limit, Mode: q.Get("mode"), AllSpaces: all})
	if err != nil {
		h.fail(w, err, 0)
		return
	}
	for i := range res.Hits {
		res.Hits[i].Excerpt = Highlight(res.Hits[i].Excerpt, "**", "**")
	}
	writeJSON(w, http.StatusOK, res)
}

func (h *handler) folders(w http.ResponseWriter, r *http.Request) {
	c, err := h.s.Folders(r.Context())
	if err != nil {
		h.fail(w, err, 0)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"folders": c})
}

func (h *handler) tags(w http.ResponseWriter, r *http.Request) {
	c, err := h.s.Tags(r.Context())
	if err != nil {
		h.fail(w, err, 0)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"tags": c})
}

// boolParam reads an optional true/false query parameter.
func boolParam(v string) (bool, error) {
	if v == "" {
		return false, nil
	}
	return strconv.ParseBool(v)
}

// noteID reads the {id} of the path; an id that is not a whole number is
// a malformed request (400), not a missing note.
func noteID(w http.ResponseWriter, r *http.Request) (int64, bool) {
	v := r.PathValue("id")
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil || id <= 0 {
		writeError(w, http.StatusBadRequest, CodeBadID, fmt.Sprintf("%q is not a note id; ids are whole numbers from 1", short(v)))
		return 0, false
	}
	return id, true
}

func (h *handler) get(w http.ResponseWriter, r *http.Request) {
	id, ok := noteID(w, r)
	if !ok {
		return
	}
	n, err := h.s.Get(r.Context(), id)
	if err != nil {
		h.fail(w, err, id)
		return
	}
	writeJSON(w, http.StatusOK, n)
}

// changeBody is the body of PUT and PATCH. Text is the seed's name for
// the content in PATCH.
type changeBody struct {
	Content *string  `json:"content"`
	Text    *string  `json:"text"`
	Mode    string   `json:"mode"`
	Title   *string  `json:"title"`
	Folder  *string  `json:"folder"`
	Tags    *tagList `json:"tags"`
}

func (h *handler) change(w http.ResponseWriter, r *http.Request, needContent bool) {
	id, ok := noteID(w, r)
	if !ok {
		return
	}
	var b changeBody
	if !h.decode(w, r, &b) {
		return
	}
	if b.Content != nil && b.Text != nil {
		writeError(w, http.StatusUnprocessableEntity, tools.CodeSchemaInvalid, "give content or text, not both")
		return
	}
	if b.Content == nil {
		b.Content = b.Text
	}
	c := Change{Content: b.Content, Mode: b.Mode, Title: b.Title, Folder: b.Folder}
	if b.Tags != nil {
		tags := []string(*b.Tags)
		c.Tags = &tags
	}
	switch {
	case needContent && c.Content == nil:
		writeError(w, http.StatusUnprocessableEntity, tools.CodeSchemaInvalid, "PUT needs content (with mode replace, append or prepend); PATCH changes single fields")
		return
	case c.Content == nil && c.Title == nil && c.Folder == nil && c.Tags == nil:
		writeError(w, http.StatusUnprocessableEntity, tools.CodeSchemaInvalid, "nothing to change: give content, title, folder or tags")
		return
	}
	n, err := h.s.Update(r.Context(), id, c)
	if err != nil {
		h.fail(w, err, id)
		return
	}
	writeJSON(w, http.StatusOK, n)
}

func (h *handler) put(w http.ResponseWriter, r *http.Request)   { h.change(w, r, true) }
func (h *handler) patch(w http.ResponseWriter, r *http.Request) { h.change(w, r, false) }

func (h *handler) delete(w http.ResponseWriter, r *http.Request) {
	id, ok := noteID(w, r)
	if !ok {
		return
	}
	n, err := h.s.Delete(r.Context(), id)
	if err != nil {
		h.fail(w, err, id)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"deleted": n})
}

// batchBody is the body of POST /notes/batch.
type batchBody struct {
	Notes []createBody `json:"notes"`
}

// batch creates many notes in one transaction, all or none, unembedded
// (agent notes reindex embeds them): the bulk path.
func (h *handler) batch(w http.ResponseWriter, r *http.Request) {
	var b batchBody
	if !h.decodeMax(w, r, &b, BatchMaxBody) {
		return
	}
	switch {
	case len(b.Notes) == 0:
		writeError(w, http.StatusUnprocessableEntity, tools.CodeSchemaInvalid, `give the notes as {"notes":[{"title":...,"content":...}, ...]}`)
		return
	case len(b.Notes) > MaxBatch:
		writeError(w, http.StatusUnprocessableEntity, tools.CodeSchemaInvalid, fmt.Sprintf("%d notes; at most %d in one batch", len(b.Notes), MaxBatch))
		return
	}
	session := tools.Info(r.Context()).SessionID
	ns := make([]NewNote, len(b.Notes))
	for i, c := range b.Notes {
		n, err := checkNote(NewNote{Title: c.Title, Content: c.Content, Folder: c.Folder, Tags: c.Tags, Session: session})
		if err != nil {
			writeError(w, http.StatusUnprocessableEntity, tools.CodeSchemaInvalid, fmt.Sprintf("note %d: %s", i, strings.TrimPrefix(err.Error(), ErrInvalid.Error()+": ")))
			return
		}
		ns[i] = n
	}
	ids, err := h.s.Import(r.Context(), ns)
	if err != nil {
		h.fail(w, err, 0)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{"ids": ids, "created": len(ids)})
}
