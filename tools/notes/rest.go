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
	// MaxBody bounds a request body; DefaultMaxBody when 0.
	MaxBody int64
}

// DefaultMaxBody is the largest request body the handler reads: a note of
// MaxContent with room for its JSON escaping.
const DefaultMaxBody = 3 << 20

// Error codes of the REST API besides NOTE_NOT_FOUND and
// TOOL_SCHEMA_INVALID.
const (
	CodeBadJSON        = "INVALID_JSON"
	CodeTooLarge       = "BODY_TOO_LARGE"
	CodeWritesDisabled = "WRITES_DISABLED"
)

// NewHandler serves the notes REST API on s, under /notes:
//
//	POST   /notes              create {title, content, folder?, tags?}     201
//	GET    /notes              list ?folder=&tag=&limit=&offset=
//	GET    /notes/search?q=    ranked hits with excerpts (?folder=&tag=&limit=)
//	GET    /notes/folders      folders with their counts
//	GET    /notes/tags         tags with their counts
//	GET    /notes/{id}         one note
//	PUT    /notes/{id}         {content, mode?, title?, folder?, tags?}
//	PATCH  /notes/{id}         any of {content|text, mode, title, folder, tags}
//	DELETE /notes/{id}         the deleted note
//
// Bodies are JSON objects; unknown fields are refused (422), as are
// invalid values; malformed JSON is 400, a missing note 404, a body over
// the limit 413. Errors are {"error":{"code","message"}}. Tags may be a
// JSON array or a comma-separated string. Mount it at /notes and /notes/;
// authentication is the server's.
func NewHandler(s Store, o HandlerOptions) http.Handler {
	if o.MaxBody <= 0 {
		o.MaxBody = DefaultMaxBody
	}
	h := &handler{s: s, o: o}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /notes", h.write(h.create))
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
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, h.o.MaxBody))
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
		writeError(w, http.StatusRequestEntityTooLarge, CodeTooLarge, fmt.Sprintf("the body is larger than %d bytes", h.o.MaxBody))
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
	res, err := h.s.Search(r.Context(), SearchOptions{Query: q.Get("q"), Folder: q.Get("folder"), Tag: q.Get("tag"), Limit: limit})
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

// noteID reads the {id} of the path; an id that is not a number names no
// note.
func noteID(w http.ResponseWriter, r *http.Request) (int64, bool) {
	v := r.PathValue("id")
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil || id <= 0 {
		writeError(w, http.StatusNotFound, CodeNotFound, fmt.Sprintf("no note with id %q; ids are whole numbers", short(v)))
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
