package conversation

import (
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/xmlcall"
	"github.com/agentcli/agent/internal/atomicfile"
	"github.com/agentcli/agent/internal/termtext"
)

// The bounds of a tool call in an export: the lines of its result, and
// the bytes of a parameter's value and of one line shown.
const (
	exportResultLines = 6
	exportValueBytes  = 120
	exportLineBytes   = 200
)

// ExportMarkdown writes the conversation of s as Markdown for a person:
// each prompt, the model's prose, and each tool call it made with its
// parameters and its result, cut to a few lines. It is the conversation
// as it stands (after a /rewind without the turns taken back; after a
// compaction, from the summary on), with what the session holds: nothing
// is redacted that the session kept, nothing it redacted is put back.
// Terminal control characters are stripped. lookup gives the tools'
// parameter names, to read the calls as the loop did; nil reads them as
// calls of unknown tools.
func ExportMarkdown(w io.Writer, s *agent.Session, lookup xmlcall.ParamLookup) error {
	e := exporter{lookup: lookup}
	fmt.Fprintf(&e.b, "# Conversation %s\n", s.ID)
	for _, m := range s.Messages() {
		switch m.Role {
		case llm.User:
			e.user(m)
		case llm.Assistant:
			e.reply(m.Text)
		}
	}
	_, err := io.WriteString(w, termtext.Strip(e.b.String()))
	return err
}

// exporter builds an export, one message at a time.
type exporter struct {
	b      strings.Builder
	lookup xmlcall.ParamLookup
	// heading is the last section started ("You", "Agent"): the replies
	// and calls of one turn stay under one.
	heading string
}

func (e *exporter) section(name string) {
	if e.heading != name {
		fmt.Fprintf(&e.b, "\n## %s\n", name)
		e.heading = name
	}
}

// user writes a user message: the responses to the calls of the reply
// before it, and what else it holds (a prompt, or the notes sent with the
// responses).
func (e *exporter) user(m llm.Message) {
	responses, rest := splitResponses(m.Text)
	for _, r := range responses {
		e.call(r)
	}
	rest = strings.TrimSpace(withoutPlanNote(rest))
	if len(responses) > 0 && rest != "" {
		// Sent with the results: a subfolder's instructions, a job's
		// end, the files changed meanwhile.
		e.b.WriteString("\n" + quoted(cutLines(rest, exportResultLines)) + "\n")
		return
	}
	if rest == "" && len(m.Images) == 0 {
		return
	}
	e.section("You")
	e.b.WriteString("\n" + rest + "\n")
	if n := len(m.Images); n > 0 {
		fmt.Fprintf(&e.b, "\n_(%d image%s attached)_\n", n, map[bool]string{true: "s"}[n != 1])
	}
}

// reply writes the prose of a reply; its calls come with their responses.
func (e *exporter) reply(text string) {
	e.section("Agent")
	if p := prose(text, e.lookup); p != "" {
		e.b.WriteString("\n" + p + "\n")
	}
}

// call writes one call and its result, cut to a few lines.
func (e *exporter) call(r response) {
	e.section("Agent")
	fmt.Fprintf(&e.b, "\n- **%s**", r.Call.Name)
	for _, p := range r.Call.Params {
		fmt.Fprintf(&e.b, " %s=%s", p.name(), termtext.Clip(termtext.OneLine(p.Value), exportValueBytes))
	}
	e.b.WriteString("\n")
	res := r.Result
	if res.Error != nil {
		fmt.Fprintf(&e.b, "  ✗ %s: %s\n", res.Error.Code, termtext.OneLine(res.Error.Text))
	} else if msg := termtext.OneLine(res.Message); msg != "" {
		fmt.Fprintf(&e.b, "  ✓ %s\n", msg)
	}
	if c := strings.Trim(res.Content, "\n"); c != "" {
		e.b.WriteString(indent(fenced(cutLines(c, exportResultLines)), "  ") + "\n")
	}
}

// response is one <tool_response> as the session holds it.
type response struct {
	Call struct {
		Name   string          `xml:"name,attr"`
		Params []responseParam `xml:",any"`
	} `xml:"tool_call"`
	Result struct {
		Error *struct {
			Code string `xml:"code,attr"`
			Text string `xml:",chardata"`
		} `xml:"error"`
		Message string `xml:"message"`
		Content string `xml:"content"`
	} `xml:"result"`
}

// responseParam is a parameter echoed in a response: an element of its
// name, or <param name="…"> for a name that is not an XML name.
type responseParam struct {
	XMLName xml.Name
	Name    string `xml:"name,attr"`
	Value   string `xml:",chardata"`
}

func (p responseParam) name() string {
	if p.XMLName.Local == "param" && p.Name != "" {
		return p.Name
	}
	return p.XMLName.Local
}

// splitResponses reads the <tool_response> blocks a user message starts
// with, and returns the text after them.
func splitResponses(text string) ([]response, string) {
	var out []response
	d := xml.NewDecoder(strings.NewReader(text))
	off := 0
	for strings.HasPrefix(strings.TrimLeft(text[off:], " \t\r\n"), "<tool_response") {
		var r response
		if err := d.Decode(&r); err != nil {
			break
		}
		out = append(out, r)
		off = int(d.InputOffset())
	}
	return out, text[off:]
}

// cutLines keeps the first n lines of s (each cut to exportLineBytes),
// saying how many more there were.
func cutLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	more := len(lines) - n
	if more > 0 {
		lines = lines[:n]
	}
	for i, l := range lines {
		lines[i] = termtext.Clip(l, exportLineBytes)
	}
	out := strings.Join(lines, "\n")
	if more > 0 {
		out += fmt.Sprintf("\n… %d more line%s", more, map[bool]string{true: "s"}[more != 1])
	}
	return out
}

// fenced puts s in a code block whose fence no run of backticks in s can
// close.
func fenced(s string) string {
	fence := "```"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	return fence + "\n" + s + "\n" + fence
}

func indent(s, by string) string {
	return by + strings.ReplaceAll(s, "\n", "\n"+by)
}

func quoted(s string) string {
	return "> " + strings.ReplaceAll(s, "\n", "\n> ")
}

// exportCommand is /export: the conversation as Markdown beside its
// session log, .agent/sessions/<id>.md.
func (c *Conversation) exportCommand(context.Context, string) (Reply, error) {
	s := c.Session()
	if len(s.Messages()) == 0 {
		return Reply{Text: "Nothing to export yet: this conversation has no messages."}, nil
	}
	name := strings.TrimSuffix(s.Path(), ".jsonl") + ".md"
	err := WriteAtomically(name, func(w io.Writer) error { return ExportMarkdown(w, s, c.tools.Reg.ParamNames) })
	if err != nil {
		return Reply{}, fmt.Errorf("export: %w", err)
	}
	shown := name
	if rel, err := filepath.Rel(c.dir, name); err == nil {
		shown = rel
	}
	return Reply{Text: "Exported the conversation to `" + shown + "` (kept out of git beside its session log, since it holds what the session holds)."}, nil
}

// ExportSession writes session id of the project at root (its last
// session when id is "") as Markdown: to w, or with file set into that
// file (readable by its owner only), which replaces an existing one only
// with force. It returns the session's id. A session that does not
// exist, or a file in the way, is bad usage (ErrUsage).
func ExportSession(w io.Writer, root, id, file string, force bool) (string, error) {
	var err error
	if id == "" {
		if id, err = agent.LastSession(root); err != nil {
			return "", err
		}
	}
	s, err := agent.OpenSession(root, id)
	if errors.Is(err, agent.ErrNoSession) {
		return "", usagef("%w ('agent sessions' lists this project's conversations)", err)
	}
	if err != nil {
		return "", err
	}
	defer s.Close()
	write := func(w io.Writer) error { return ExportMarkdown(w, s, nil) }
	if file == "" {
		return id, write(w)
	}
	if _, err := os.Lstat(file); err == nil && !force {
		return "", usagef("%s exists; --force replaces it", file)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	if err := atomicfile.WriteFile(file, 0o600, write); err != nil {
		return "", fmt.Errorf("export to %s: %w", file, err)
	}
	return id, nil
}
