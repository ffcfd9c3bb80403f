package chat

import (
	"strings"
	"sync"

	"charm.land/lipgloss/v2"
)

// A small highlighter for code blocks: keywords, strings, numbers,
// comments and capitalised type names of the languages people paste most.
// It is not a parser; it colours the tokens a reader looks for. Its
// tables are built on first use, never at init (a full lexer library
// registers hundreds of lexers at start-up, which every command would pay
// for).

type lang struct {
	keywords   map[string]bool
	line       []string // line comment starts
	blockOpen  string
	blockClose string
	backquotes bool // `raw strings`
}

var (
	langsOnce sync.Once
	langs     map[string]*lang
)

func buildLangs() {
	kw := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, w := range strings.Fields(s) {
			m[w] = true
		}
		return m
	}
	cLike := "if else for while do switch case default break continue return goto struct union enum typedef const static extern void int char long short unsigned signed float double sizeof volatile inline bool true false null NULL"
	goL := &lang{keywords: kw("break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var nil true false iota any error string int int64 uint8 byte rune bool float64"), line: []string{"//"}, blockOpen: "/*", blockClose: "*/", backquotes: true}
	py := &lang{keywords: kw("and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield None True False self"), line: []string{"#"}}
	js := &lang{keywords: kw("break case catch class const continue debugger default delete do else export extends finally for function if import in instanceof let new return super switch this throw try typeof var void while with yield async await of null undefined true false interface type enum implements private public readonly"), line: []string{"//"}, blockOpen: "/*", blockClose: "*/", backquotes: true}
	rust := &lang{keywords: kw("as async await break const continue crate dyn else enum extern false fn for if impl in let loop match mod move mut pub ref return self Self static struct super trait true type unsafe use where while Some None Ok Err"), line: []string{"//"}, blockOpen: "/*", blockClose: "*/"}
	c := &lang{keywords: kw(cLike + " class public private protected new delete this throw try catch namespace template using virtual override final import package extends implements interface abstract synchronized"), line: []string{"//"}, blockOpen: "/*", blockClose: "*/"}
	sh := &lang{keywords: kw("if then else elif fi for in do done while until case esac function return local export echo exit set unset readonly shift"), line: []string{"#"}}
	sql := &lang{keywords: kw("select from where insert into values update set delete create table index drop alter add join left right inner outer on group by order having limit offset as and or not null primary key references union all distinct case when then else end SELECT FROM WHERE INSERT INTO VALUES UPDATE SET DELETE CREATE TABLE INDEX DROP ALTER ADD JOIN LEFT RIGHT INNER OUTER ON GROUP BY ORDER HAVING LIMIT OFFSET AS AND OR NOT NULL PRIMARY KEY REFERENCES UNION ALL DISTINCT CASE WHEN THEN ELSE END"), line: []string{"--"}, blockOpen: "/*", blockClose: "*/"}
	data := &lang{keywords: kw("true false null yes no"), line: []string{"#"}}
	langs = map[string]*lang{
		"go": goL, "golang": goL,
		"python": py, "py": py,
		"js": js, "javascript": js, "ts": js, "typescript": js, "jsx": js, "tsx": js,
		"rust": rust, "rs": rust,
		"c": c, "cpp": c, "c++": c, "h": c, "java": c, "kotlin": c, "cs": c, "csharp": c, "swift": c,
		"sh": sh, "bash": sh, "shell": sh, "zsh": sh, "console": sh,
		"sql":  sql,
		"json": data, "yaml": data, "yml": data, "toml": data,
	}
}

func lookupLang(name string) *lang {
	langsOnce.Do(buildLangs)
	return langs[strings.ToLower(strings.TrimSpace(name))]
}

// highlight colours one line of code in language name; unknown languages
// and diffs get their own treatment. state carries an open block comment
// from line to line.
func (st *styles) highlight(name, line string, inBlock *bool) string {
	switch strings.ToLower(name) {
	case "diff", "patch":
		return st.diffLine(line)
	}
	l := lookupLang(name)
	if l == nil {
		return line
	}
	var b strings.Builder
	i := 0
	emit := func(s lipgloss.Style, text string) { b.WriteString(s.Render(text)) }
	for i < len(line) {
		if *inBlock {
			end := strings.Index(line[i:], l.blockClose)
			if end < 0 {
				emit(st.comment, line[i:])
				return b.String()
			}
			end += i + len(l.blockClose)
			emit(st.comment, line[i:end])
			i = end
			*inBlock = false
			continue
		}
		rest := line[i:]
		if l.blockOpen != "" && strings.HasPrefix(rest, l.blockOpen) {
			*inBlock = true
			emit(st.comment, l.blockOpen)
			i += len(l.blockOpen)
			continue
		}
		if lineComment(l, rest) {
			emit(st.comment, rest)
			return b.String()
		}
		c := line[i]
		switch {
		case c == '"' || c == '\'' || (c == '`' && l.backquotes):
			j := i + 1
			for j < len(line) && line[j] != c {
				if line[j] == '\\' && c != '`' {
					j++
				}
				j++
			}
			j = min(j+1, len(line))
			emit(st.str, line[i:j])
			i = j
		case c >= '0' && c <= '9':
			j := i
			for j < len(line) && (isWordByte(line[j]) || line[j] == '.') {
				j++
			}
			emit(st.num, line[i:j])
			i = j
		case isWordByte(c):
			j := i
			for j < len(line) && isWordByte(line[j]) {
				j++
			}
			w := line[i:j]
			switch {
			case l.keywords[w]:
				emit(st.kw, w)
			case w[0] >= 'A' && w[0] <= 'Z':
				emit(st.typ, w)
			default:
				b.WriteString(w)
			}
			i = j
		default:
			j := i + 1
			for j < len(line) && !isWordByte(line[j]) && !strings.ContainsRune("\"'`#/-", rune(line[j])) {
				j++
			}
			b.WriteString(line[i:j])
			i = j
		}
	}
	return b.String()
}

func lineComment(l *lang, s string) bool {
	for _, p := range l.line {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// diffLine colours one line of a unified diff.
func (st *styles) diffLine(line string) string { return st.diffRow(line, line) }

// diffRow colours row, a part of the diff line line, as that line.
func (st *styles) diffRow(line, row string) string {
	switch {
	case strings.HasPrefix(line, "+++"), strings.HasPrefix(line, "---"):
		return st.bold.Render(row)
	case strings.HasPrefix(line, "+"):
		return st.diffAdd.Render(row)
	case strings.HasPrefix(line, "-"):
		return st.diffDel.Render(row)
	case strings.HasPrefix(line, "@@"):
		return st.diffHunk.Render(row)
	}
	return row
}
