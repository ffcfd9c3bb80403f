package notes

import (
	"fmt"
	"strings"
)

// A query is read by our own parser, not handed to the database's, so
// that both backends mean the same by it and so that what people type
// (well-known, c++, e-mail, -hosted, misses:near) is searched as the words
// it holds, the way the index split them, without a syntax error. Words
// are runs of letters and digits; any other character inside a word
// joins its parts into a phrase ("well known"). Only a real mistake in the
// operators (a dangling OR, an unclosed quote or parenthesis) makes the
// search fall back to plain words, and the answer says so.

// query is a parsed search query: a tree of and, or and not over terms.
type query struct {
	op     string   // opTerm, opAnd, opOr, opNot (binary: kids[0] NOT kids[1])
	kids   []*query // the operands of and, or and not
	words  []string // a term's words: one word, or a phrase
	prefix bool     // the term's last word is a prefix (word*)
	column string   // "", or the column a term must match in
}

const (
	opTerm = "term"
	opAnd  = "and"
	opOr   = "or"
	opNot  = "not"
)

// Columns a term can be limited to with name:word. "tag" is "tags".
var queryColumns = map[string]string{"title": "title", "content": "content", "tags": "tags", "tag": "tags", "folder": "folder"}

// qtoken is one token of a query: an operator, a parenthesis, or a term.
type qtoken struct {
	kind string // "(", ")", "AND", "OR", "NOT", "term"
	term *query
}

// parseQuery reads q. It returns the query tree, or nil when q holds no
// words, and a problem in words when q is not valid syntax.
func parseQuery(q string) (*query, string) {
	toks, problem := lexQuery(q)
	if problem != "" {
		return nil, problem
	}
	p := &qparser{toks: toks}
	if len(toks) == 0 {
		return nil, ""
	}
	n, problem := p.or()
	if problem == "" && p.pos < len(p.toks) {
		problem = fmt.Sprintf("unexpected %s", p.toks[p.pos].kind)
	}
	if problem != "" {
		return nil, problem
	}
	return n, ""
}

// lexQuery splits q into tokens. Words without letters or digits ("*",
// "-", "++") are dropped.
func lexQuery(q string) ([]qtoken, string) {
	var toks []qtoken
	column := ""
	for i := 0; i < len(q); {
		c := q[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
			continue
		case c == '(' || c == ')':
			if column != "" {
				return nil, fmt.Sprintf("%s: needs a word after it", column)
			}
			toks = append(toks, qtoken{kind: string(c)})
			i++
			continue
		case c == '"':
			end := strings.IndexByte(q[i+1:], '"')
			if end < 0 {
				return nil, "a quote is not closed"
			}
			t := &query{op: opTerm, words: PlainWords(q[i+1:i+1+end], maxWords), column: column}
			i += end + 2
			if i < len(q) && q[i] == '*' {
				t.prefix = true
				i++
			}
			column = ""
			if len(t.words) > 0 {
				toks = append(toks, qtoken{kind: "term", term: t})
			}
			continue
		}
		j := i
		for j < len(q) && !strings.ContainsRune(" \t\n\r()\"", rune(q[j])) {
			j++
		}
		raw := q[i:j]
		i = j
		if column == "" && (raw == "AND" || raw == "OR" || raw == "NOT") {
			toks = append(toks, qtoken{kind: raw})
			continue
		}
		if name, rest, ok := strings.Cut(raw, ":"); ok && column == "" {
			if col, known := queryColumns[strings.ToLower(name)]; known {
				column = col
				raw = rest
				if raw == "" { // title:"a phrase" or title: word
					continue
				}
			}
		}
		t := &query{op: opTerm, words: PlainWords(raw, maxWords), column: column, prefix: strings.HasSuffix(raw, "*")}
		column = ""
		if len(t.words) > 0 {
			toks = append(toks, qtoken{kind: "term", term: t})
		}
	}
	if column != "" {
		return nil, column + ": needs a word after it"
	}
	return toks, ""
}

type qparser struct {
	toks []qtoken
	pos  int
}

func (p *qparser) peek() string {
	if p.pos < len(p.toks) {
		return p.toks[p.pos].kind
	}
	return ""
}

// or := and (OR and)*
func (p *qparser) or() (*query, string) {
	n, problem := p.and()
	if problem != "" {
		return nil, problem
	}
	for p.peek() == "OR" {
		p.pos++
		r, problem := p.and()
		if problem != "" {
			return nil, problem
		}
		n = join(opOr, n, r)
	}
	return n, ""
}

// and := not ([AND] not)*
func (p *qparser) and() (*query, string) {
	n, problem := p.not()
	if problem != "" {
		return nil, problem
	}
	for {
		switch p.peek() {
		case "AND":
			p.pos++
		case "term", "(":
		default:
			return n, ""
		}
		r, problem := p.not()
		if problem != "" {
			return nil, problem
		}
		n = join(opAnd, n, r)
	}
}

// not := primary (NOT primary)*
func (p *qparser) not() (*query, string) {
	n, problem := p.primary()
	if problem != "" {
		return nil, problem
	}
	for p.peek() == "NOT" {
		p.pos++
		r, problem := p.primary()
		if problem != "" {
			return nil, problem
		}
		n = &query{op: opNot, kids: []*query{n, r}}
	}
	return n, ""
}

// primary := term | ( or )
func (p *qparser) primary() (*query, string) {
	switch k := p.peek(); k {
	case "term":
		p.pos++
		return p.toks[p.pos-1].term, ""
	case "(":
		p.pos++
		n, problem := p.or()
		if problem != "" {
			return nil, problem
		}
		if p.peek() != ")" {
			return nil, "a parenthesis is not closed"
		}
		p.pos++
		return n, ""
	case "":
		return nil, "the query ends where a word should be"
	default:
		return nil, fmt.Sprintf("%s where a word should be", k)
	}
}

func join(op string, a, b *query) *query {
	if a.op == op {
		a.kids = append(a.kids, b)
		return a
	}
	return &query{op: op, kids: []*query{a, b}}
}

// plainQuery is words searched as plain words: all of them (op opAnd) or
// any (opOr).
func plainQuery(words []string, op string) *query {
	if len(words) == 1 {
		return &query{op: opTerm, words: words}
	}
	q := &query{op: op}
	for _, w := range words {
		q.kids = append(q.kids, &query{op: opTerm, words: []string{w}})
	}
	return q
}

// String shows the query as it was understood, in the query syntax.
func (q *query) String() string {
	switch q.op {
	case opTerm:
		s := strings.Join(q.words, " ")
		if len(q.words) > 1 {
			s = `"` + s + `"`
		}
		if q.prefix {
			s += "*"
		}
		if q.column != "" {
			s = q.column + ":" + s
		}
		return s
	case opNot:
		return q.kids[0].String() + " NOT " + paren(q.kids[1], opNot)
	}
	sep := " "
	if q.op == opOr {
		sep = " OR "
	}
	parts := make([]string, len(q.kids))
	for i, k := range q.kids {
		parts[i] = paren(k, q.op)
	}
	return strings.Join(parts, sep)
}

// paren puts a sub-query in parentheses where its operator binds less
// than its parent's.
func paren(q *query, parent string) string {
	rank := map[string]int{opOr: 1, opAnd: 2, opNot: 3, opTerm: 4}
	if rank[q.op] <= rank[parent] && q.op != opTerm {
		return "(" + q.String() + ")"
	}
	return q.String()
}

// fts5 renders the query in SQLite FTS5 syntax: every word quoted, so
// nothing in it is read as an operator.
func (q *query) fts5() string {
	switch q.op {
	case opTerm:
		s := `"` + strings.Join(q.words, " ") + `"`
		if q.prefix {
			s += "*"
		}
		if q.column != "" {
			s = q.column + " : " + s
		}
		return s
	case opNot:
		return "(" + q.kids[0].fts5() + " NOT " + q.kids[1].fts5() + ")"
	}
	sep := " AND "
	if q.op == opOr {
		sep = " OR "
	}
	parts := make([]string, len(q.kids))
	for i, k := range q.kids {
		parts[i] = k.fts5()
	}
	return "(" + strings.Join(parts, sep) + ")"
}

// pgWeights are the tsvector weights of the columns in PostgreSQL.
var pgWeights = map[string]string{"title": "A", "content": "B", "tags": "C", "folder": "D"}

// tsquery renders the query as PostgreSQL tsquery text for to_tsquery:
// a phrase's words joined by <->, a prefix as :*, a column as its weight.
func (q *query) tsquery() string {
	switch q.op {
	case opTerm:
		parts := make([]string, len(q.words))
		for i, w := range q.words {
			s := "'" + w + "'"
			label := pgWeights[q.column]
			if q.prefix && i == len(q.words)-1 {
				label = "*" + label
			}
			if label != "" {
				s += ":" + label
			}
			parts[i] = s
		}
		if len(parts) == 1 {
			return parts[0]
		}
		return "(" + strings.Join(parts, " <-> ") + ")"
	case opNot:
		return "(" + q.kids[0].tsquery() + " & !" + q.kids[1].tsquery() + ")"
	}
	sep := " & "
	if q.op == opOr {
		sep = " | "
	}
	parts := make([]string, len(q.kids))
	for i, k := range q.kids {
		parts[i] = k.tsquery()
	}
	return "(" + strings.Join(parts, sep) + ")"
}
