package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/conversation"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/mcptool"
	"github.com/agentcli/agent/tools/notes"
)

// Served is what agent serve offers for one project: the project's tools
// over MCP as a run has them (less those that are never served), and the
// notes REST API, with the user's permissions.deny rules applied to
// every write and every call and change in the audit log.
type Served struct {
	// MCP is the MCP server.
	MCP *mcp.Server
	// Notes is the notes REST API, behind the same guards as the MCP
	// calls; nil when the note tools are off.
	Notes http.Handler
	close func() error
}

// Close closes what the server opened.
func (s *Served) Close() error { return s.close() }

// Serve builds what agent serve offers for the project at dir: only the
// tools that read, unless allowWrites.
func (b *Builder) Serve(ctx context.Context, dir string, cfg config.Config, allowWrites bool) (*Served, error) {
	if err := conversation.EnsureStateDir(dir); err != nil { // the audit log, notes, backups
		return nil, err
	}
	if err := conversation.RememberProject(b.UserDir, dir); err != nil {
		b.warn("warning: " + err.Error())
	}
	// The tools that say they are never served (a command, a fetch:
	// nobody is there to approve one) are left out by the server; MCP
	// servers' tools are never served, so none is started.
	set, err := b.catalog(ctx, conversation.ToolInput{Root: dir, Cfg: cfg, NoMCP: true})
	if err != nil {
		return nil, err
	}
	reg := set.Reg
	audit := agent.NewAudit(dir)
	fr := b.FileRoot(dir, cfg)
	closeAll := func() error { return errors.Join(audit.Close(), fr.Close(), set.Close()) }
	if err := audit.Check(); err != nil {
		closeAll()
		return nil, err
	}
	perms, err := permissions(cfg, fr, set.Defs())
	if err != nil {
		closeAll()
		return nil, err
	}
	session := "serve-" + time.Now().UTC().Format("20060102-150405")
	sv := &Served{close: closeAll}
	sv.MCP = mcptool.NewServer(reg, mcptool.ServeOptions{
		AllowWrites: allowWrites,
		Version:     b.Version,
		Session:     session,
		Observe:     auditObserver(audit),
		Guard:       servedGuard(perms),
	})
	if set.Notes != nil {
		h := notes.NewHandler(set.Notes, notes.HandlerOptions{ReadOnly: !allowWrites})
		sv.Notes = guardedNotes(h, restGuard{perms: perms, reg: reg, audit: audit, session: session})
	}
	return sv, nil
}

// auditObserver records each served call in the project's audit log, as
// the agent's own calls are.
func auditObserver(a *agent.Audit) func(mcptool.ServedCall) {
	return func(c mcptool.ServedCall) {
		outcome := agent.OutcomeOK
		switch {
		case c.Rule != "":
			outcome = agent.OutcomeDenied
		case c.Result.IsError():
			outcome = agent.OutcomeError
		}
		_ = a.Record(agent.AuditEntry{
			Time: time.Now(), Session: c.Info.SessionID, CallID: c.Info.CallID, Tool: c.Name, Params: c.Raw,
			Outcome: outcome, Code: c.Result.Code, DurationMS: float64(c.Took.Microseconds()) / 1000, Rule: c.Rule,
		})
	}
}

// servedGuard applies the user's permissions to a write served over MCP
// as the chat does: a deny rule refuses it, and so does a rule that
// cannot judge it, since nobody is there to ask. Allow rules change
// nothing: --allow-writes already lets every other write run.
func servedGuard(p agent.Permissions) func(tools.Definition, tools.Input) (*tools.Result, string) {
	return func(def tools.Definition, in tools.Input) (*tools.Result, string) { return refusal(p, def, in) }
}

// refusal is the error a served call gets from the user's rules, or nil.
func refusal(p agent.Permissions, def tools.Definition, in tools.Input) (*tools.Result, string) {
	d, ok := p.Decide(agent.Question{Tool: def, Input: in})
	switch {
	case !ok || d.Allow:
		return nil, ""
	case d.Ask:
		res := tools.Errorf(tools.CodePolicyDenied, "%s was not run: %s, so the user's rule %s cannot judge it, and nobody approves calls served by agent serve", def.Name, d.Reason, d.Label)
		return &res, d.Label
	}
	res := tools.Errorf(tools.CodePolicyDenied, "%s was not run: the user's rule %s refuses it", def.Name, d.Label)
	return &res, d.Label
}

// restGuard is what the notes REST API is guarded with: the same rules
// and audit log as the MCP calls of the server.
type restGuard struct {
	perms   agent.Permissions
	reg     *tools.Registry
	audit   *agent.Audit
	session string
	calls   *atomic.Int64
}

// guardedNotes wraps the notes REST handler in the chat's guards. Each
// change (create, update, delete) is judged by the user's permissions as
// the note tool it stands for (POST /notes and POST /notes/batch are note_create, PUT and PATCH
// /notes/{id} note_update, DELETE /notes/{id} note_delete), refused with
// 403 and TOOL_POLICY_DENIED when a rule refuses it, and recorded in the
// audit log, whatever its outcome, as a served MCP call is.
func guardedNotes(h http.Handler, g restGuard) http.Handler {
	g.calls = new(atomic.Int64)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tool, id := restTool(r)
		if tool == "" {
			h.ServeHTTP(w, r)
			return
		}
		start := time.Now()
		info := tools.CallInfo{SessionID: g.session, CallID: "rest-" + strconv.FormatInt(g.calls.Add(1), 10)}
		params, batch := restParams(r, id)
		entry := agent.AuditEntry{Time: start, Session: info.SessionID, CallID: info.CallID, Tool: tool, Params: params}
		def := tools.Definition{Name: tool, Writes: true}
		if t, ok := g.reg.Lookup(tool); ok {
			def = t.Definition()
		}
		values := map[string]any{}
		for k, v := range params {
			values[k] = v
		}
		var ids []string
		if res, rule := refusal(g.perms, def, tools.Input{Values: values}); res != nil {
			writeRESTError(w, http.StatusForbidden, res.Code, res.Message)
			entry.Outcome, entry.Code, entry.Rule = agent.OutcomeDenied, res.Code, rule
		} else {
			rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
			if batch != nil {
				rec.keep = maxBatchAnswer
			}
			h.ServeHTTP(rec, r.WithContext(tools.WithInfo(r.Context(), info)))
			entry.Outcome = agent.OutcomeOK
			if rec.status >= 400 {
				entry.Outcome, entry.Code = agent.OutcomeError, rec.code()
			} else if tool == "note_create" {
				ids = rec.created()
			}
		}
		entry.DurationMS = float64(time.Since(start).Microseconds()) / 1000
		for _, e := range restEntries(entry, batch, ids) {
			_ = g.audit.Record(e)
		}
	})
}

// restEntries are the audit lines of one REST change: its own, or for a
// batch one per note, each with the note's fields; a created note's
// with the id it was given (ids, in the order of the notes).
func restEntries(e agent.AuditEntry, batch []map[string]string, ids []string) []agent.AuditEntry {
	if batch == nil {
		if len(ids) == 1 {
			e.Params["note_id"] = ids[0]
		}
		return []agent.AuditEntry{e}
	}
	out := make([]agent.AuditEntry, len(batch))
	for i, p := range batch {
		if i < len(ids) {
			p["note_id"] = ids[i]
		}
		out[i] = e
		out[i].Params = p
	}
	return out
}

// restTool names the note tool a REST request stands for, and the note's
// id from the path; "" for a request that changes nothing.
func restTool(r *http.Request) (tool, id string) {
	rest, ok := strings.CutPrefix(r.URL.Path, "/notes")
	if !ok {
		return "", ""
	}
	id = strings.TrimPrefix(rest, "/")
	switch {
	case r.Method == http.MethodPost && (id == "" || id == "batch"):
		// A batch is many creations in one request: judged as
		// note_create once, audited one line a note.
		return "note_create", ""
	case (r.Method == http.MethodPut || r.Method == http.MethodPatch) && id != "":
		return "note_update", id
	case r.Method == http.MethodDelete && id != "":
		return "note_delete", id
	}
	return "", ""
}

// maxBatchAnswer bounds the answer to POST /notes/batch kept for the
// ids of its notes: MaxBatch ids, each at most 19 digits and a comma.
const maxBatchAnswer = notes.MaxBatch*20 + 64

// restParams are a change's parameters for the audit log: the note's id
// and the body's fields (the log shortens long values); for a batch
// (POST /notes/batch), each note's fields instead, so that every note
// has its own line. The body is read up to the notes handler's own
// limit and handed on whole.
func restParams(r *http.Request, id string) (params map[string]string, batch []map[string]string) {
	params = map[string]string{}
	if id != "" {
		params["note_id"] = id
	}
	if r.Body == nil {
		return params, nil
	}
	isBatch := r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/batch")
	limit := int64(notes.DefaultMaxBody)
	if isBatch {
		limit = notes.BatchMaxBody
	}
	head, _ := io.ReadAll(io.LimitReader(r.Body, limit+1))
	r.Body = readCloser{io.MultiReader(bytes.NewReader(head), r.Body), r.Body}
	var fields map[string]json.RawMessage
	if json.Unmarshal(head, &fields) != nil {
		return params, nil
	}
	if !isBatch {
		return bodyParams(params, fields), nil
	}
	var list []map[string]json.RawMessage
	if json.Unmarshal(fields["notes"], &list) != nil || len(list) == 0 {
		return params, nil
	}
	if len(list) > notes.MaxBatch {
		// Refused whole by the handler: one line says how many.
		params["notes"] = strconv.Itoa(len(list)) + " notes"
		return params, nil
	}
	batch = make([]map[string]string, len(list))
	for i, n := range list {
		batch[i] = bodyParams(map[string]string{}, n)
	}
	return params, batch
}

// bodyParams adds a JSON body's fields to params, strings as they are,
// other values as JSON.
func bodyParams(params map[string]string, fields map[string]json.RawMessage) map[string]string {
	for k, v := range fields {
		var s string
		if json.Unmarshal(v, &s) == nil {
			params[k] = s
		} else {
			params[k] = string(v)
		}
	}
	return params
}

type readCloser struct {
	io.Reader
	io.Closer
}

// statusRecorder keeps a response's status, the start of an error
// response's body for its code, and up to keep bytes of a successful
// one.
type statusRecorder struct {
	http.ResponseWriter
	status int
	body   []byte
	keep   int
}

func (s *statusRecorder) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	limit := s.keep
	if s.status >= 400 {
		limit = 1024
	}
	if len(s.body) < limit {
		s.body = append(s.body, b[:min(len(b), limit-len(s.body))]...)
	}
	return s.ResponseWriter.Write(b)
}

// created are the ids a create gave, as the answer says them: a note's
// Location (/notes/ID), or a batch's {"ids": [...]}.
func (s *statusRecorder) created() []string {
	if id, ok := strings.CutPrefix(s.Header().Get("Location"), "/notes/"); ok {
		return []string{id}
	}
	var b struct{ IDs []int64 }
	if json.Unmarshal(s.body, &b) != nil {
		return nil
	}
	ids := make([]string, len(b.IDs))
	for i, id := range b.IDs {
		ids[i] = strconv.FormatInt(id, 10)
	}
	return ids
}

// Unwrap lets http.ResponseController reach the connection.
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// code is the error code of a REST error response
// ({"error":{"code":...}}), or the HTTP status when it has none.
func (s *statusRecorder) code() string {
	var e struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	if json.Unmarshal(s.body, &e) == nil && e.Error.Code != "" {
		return e.Error.Code
	}
	return fmt.Sprintf("HTTP_%d", s.status)
}

// writeRESTError answers as the notes REST API answers its errors.
func writeRESTError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]string{"code": code, "message": msg}})
}
