package agent_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/llm/llmtest"
	"github.com/agentcli/agent/agent/llm/openai"
	"github.com/agentcli/agent/tools"
)

// guardTools is read_file and write_file with the write guard of the real
// file tools: a file can be rewritten only after it was read, and a read
// whose result the budget elided (ForgetCall) no longer counts.
type guardTools struct {
	root string
	mu   sync.Mutex
	read map[string]string // path → id of the call that read it
}

type gReadArgs struct {
	FilePath string `json:"file_path"`
}

type gWriteArgs struct {
	FilePath string `json:"file_path"`
	Content  string `json:"content" verbatim:"true"`
}

// ForgetCall makes the read of call id count as never made.
func (g *guardTools) ForgetCall(id string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for p, c := range g.read {
		if c == id {
			delete(g.read, p)
		}
	}
}

func (g *guardTools) registry() *tools.Registry {
	read := tools.New("read_file", "Read a file.", func(ctx context.Context, a gReadArgs) (tools.Result, error) {
		b, err := os.ReadFile(filepath.Join(g.root, a.FilePath))
		if err != nil {
			return tools.Errorf(tools.CodeFileNotFound, "file not found: %s", a.FilePath), nil
		}
		g.mu.Lock()
		g.read[a.FilePath] = tools.Info(ctx).CallID
		g.mu.Unlock()
		n := strings.Count(string(b), "\n")
		return tools.Result{Message: "read " + a.FilePath, Content: string(b),
			Metadata: []tools.Attr{{Name: "size", Value: fmt.Sprint(len(b))}, {Name: "range", Value: fmt.Sprintf("1-%d", n)}}}, nil
	})
	write := tools.New("write_file", "Rewrite a file.", func(ctx context.Context, a gWriteArgs) (tools.Result, error) {
		g.mu.Lock()
		_, ok := g.read[a.FilePath]
		g.mu.Unlock()
		if !ok {
			return tools.Errorf(tools.CodeFileStale, "%s was not read in this conversation (or its read was elided): read it before rewriting it", a.FilePath), nil
		}
		if err := os.WriteFile(filepath.Join(g.root, a.FilePath), []byte(a.Content), 0o644); err != nil {
			return tools.Result{}, err
		}
		return tools.Result{Message: "rewrote " + a.FilePath, Changed: []string{a.FilePath}}, nil
	}, tools.Writes())
	return tools.NewRegistry(read, write)
}

// sixKB is a file of about 6 KB whose every line says which file it is.
func sixKB(name string) string {
	var b strings.Builder
	for i := 1; b.Len() < 6000; i++ {
		fmt.Fprintf(&b, "%s line %03d: the quick brown fox jumps over the lazy dog, again and again.\n", name, i)
	}
	return b.String()
}

func readCall(name string) string {
	return fmt.Sprintf("Reading %s.\n<tool_call name=\"read_file\"><file_path>%s</file_path></tool_call>", name, name)
}

func writeCall(name, content string) string {
	return fmt.Sprintf("<tool_call name=\"write_file\"><file_path>%s</file_path><content>%s</content></tool_call>", name, content)
}

// systemPrompt is a system prompt of the size of the real one's fixed
// part (role, protocol, catalog: about 5.5 KB).
var systemPrompt = strings.Repeat("You are a careful coding agent. Call tools with <tool_call> blocks; read before you write. ", 60)

// bytesPerToken is how a pessimistic server counts: 3 bytes a token
// (real tokenizers give about 4 for this text), so a request under the
// window by this count is under it by any.
const bytesPerToken = 3

func TestBudgetKeepsEveryRequestInTheWindow(t *testing.T) {
	const window = 8000
	root := t.TempDir()
	var names []string
	for i := 1; i <= 12; i++ {
		n := fmt.Sprintf("f%02d.txt", i)
		names = append(names, n)
		if err := os.WriteFile(filepath.Join(root, n), []byte(sixKB(n)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var answers []llmtest.Answer
	for _, n := range names {
		answers = append(answers, llmtest.Say(readCall(n)))
	}
	answers = append(answers,
		llmtest.Say(writeCall("f01.txt", "new")), // its read was elided long ago
		llmtest.Say(readCall("f01.txt")),
		llmtest.Say(writeCall("f01.txt", "new")),
		llmtest.Say("All twelve files are read; f01.txt is rewritten."),
	)
	s := llmtest.NewOpenAIServer(t, answers...)
	s.CountPrompt(func(r llmtest.Request) int { return len(r.Text()) / bytesPerToken })
	s.Intercept(summaries)
	model, err := openai.New(openai.Options{Model: "gpt-test", BaseURL: s.URL, APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	g := &guardTools{root: root, read: map[string]string{}}
	budget := &agent.Budget{Window: window, Reads: g}
	a := &agent.Agent{
		Model: model, Tools: g.registry(), Session: agent.NewSession(root), System: systemPrompt,
		Approval: agent.NewApproval(agent.PolicyAuto), MaxIterations: 30, Budget: budget,
	}
	defer a.Session.Close()
	var codes []string
	out, err := a.Run(t.Context(), "Read the twelve files, then rewrite f01.txt.", func(ev agent.Event) {
		if ev.Type == agent.EventResult {
			codes = append(codes, ev.Result.Result.Code)
		}
	})
	if err != nil {
		t.Fatalf("run: %v (codes %v)", err, codes)
	}
	all := s.Requests()
	var reqs []llmtest.Request
	for _, r := range all {
		if _, ok := summaries(r); !ok {
			reqs = append(reqs, r)
		}
	}
	if len(reqs) != len(answers) {
		t.Fatalf("%d requests, want %d", len(reqs), len(answers))
	}
	limit := window - agent.DefaultReserve(window)
	for i, r := range all {
		if got := len(r.Text()) / bytesPerToken; got > limit {
			t.Errorf("request %d: %d bytes = %d tokens at %d bytes a token, over the %d the window leaves beside the reply", i+1, len(r.Text()), got, bytesPerToken, limit)
		}
		if r.System != systemPrompt {
			t.Errorf("request %d: the system prompt changed", i+1)
		}
	}
	// The newest tool result is always whole.
	for i, n := range names[1:] {
		if last := reqs[i+2].LastUser(); !strings.Contains(last, sixKB(n)) {
			t.Errorf("request %d: the result of reading %s is not whole", i+3, n)
		}
	}
	// Request 4 is the first over the high-water mark: the oldest reads
	// become stubs, their calls kept.
	if first := reqs[3].Messages[2].Text; !strings.Contains(first, `<tool_call name="read_file">`) ||
		!strings.Contains(first, "[read_file f01.txt lines 1-") || !strings.Contains(first, "elided to save context; read again if needed]") {
		t.Errorf("the oldest read is not a stub: %.400q", first)
	}
	want := []string{"", "", "", "", "", "", "", "", "", "", "", "", tools.CodeFileStale, "", ""}
	if strings.Join(codes, ",") != strings.Join(want, ",") {
		t.Errorf("codes %q, want %q: a rewrite after an elided read is refused until the file is read again", codes, want)
	}
	if got, _ := os.ReadFile(filepath.Join(root, "f01.txt")); string(got) != "new" {
		t.Errorf("f01.txt = %.40q after the second write", got)
	}
	if out.Usage.InputTokens == 0 {
		t.Error("no usage counted")
	}
}

// summaries answers the loop's summary requests with a summary.
func summaries(r llmtest.Request) (llmtest.Answer, bool) {
	if !strings.Contains(r.LastUser(), "write a summary that will replace everything above") {
		return llmtest.Answer{}, false
	}
	return llmtest.Say("The user asked to read twelve files and rewrite f01.txt. Files read so far are listed in the calls."), true
}

func textRequest(s string) llm.Request {
	return llm.Request{Messages: []llm.Message{{Role: llm.User, Text: s}}}
}
