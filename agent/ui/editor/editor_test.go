package editor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	acp "github.com/coder/acp-go-sdk"

	"github.com/agentcli/agent/agent/llm/llmtest"
)

func readCall(path string) string {
	return `<tool_call name="read_file" id="1"><file_path>` + path + `</file_path></tool_call>`
}

func createCall(path, content string) string {
	return `<tool_call name="write_file" id="1"><operation_type>create</operation_type><file_path>` + path + `</file_path><content>` + content + `</content></tool_call>`
}

// A turn streams the model's prose, its read as a tool_call of kind
// read with the file's absolute path, and the result, then ends the
// turn.
func TestPromptStreamsTheTurn(t *testing.T) {
	h := start(t, "", llmtest.Texts("Reading.\n"+readCall("README.md"), "It says hello."), false)
	h.writeFile("README.md", "hello\n")
	id := h.newSession()
	resp, err := h.prompt(id, "what does the readme say?")
	if err != nil {
		t.Fatalf("prompt: %v", err)
	}
	if resp.StopReason != acp.StopReasonEndTurn {
		t.Errorf("stop reason = %q, want end_turn", resp.StopReason)
	}
	got := h.client.received()
	for _, want := range []string{
		`"sessionUpdate":"tool_call"`,
		`"kind":"read"`,
		`"locations":[{"path":"` + filepath.Join(h.dir, "README.md") + `"}]`,
		`"status":"completed"`,
		`"text":"It says hello."`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("updates lack %s:\n%s", want, got)
		}
	}
}

// session/load replays a saved session (what the person said, the
// model's prose and calls) before answering, then goes on with it: the
// model's next request holds the earlier turn.
func TestLoadReplaysAndGoesOn(t *testing.T) {
	dir := t.TempDir()
	script := llmtest.Texts(readCall("a.txt"), "First answer.", "Second answer.")
	h := start(t, dir, script, false)
	h.writeFile("a.txt", "alpha\n")
	id := h.newSession()
	if _, err := h.prompt(id, "first question"); err != nil {
		t.Fatalf("prompt: %v", err)
	}

	h2 := start(t, dir, script, false)
	if _, err := h2.conn.LoadSession(t.Context(), acp.LoadSessionRequest{SessionId: id, Cwd: dir, McpServers: []acp.McpServer{}}); err != nil {
		t.Fatalf("session/load: %v", err)
	}
	got := h2.client.received()
	for _, want := range []string{
		`"sessionUpdate":"user_message_chunk"`, `"text":"first question"`,
		`"sessionUpdate":"tool_call"`, `"title":"read_file a.txt"`,
		`"text":"First answer."`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("replay lacks %s:\n%s", want, got)
		}
	}
	if _, err := h2.prompt(id, "second question"); err != nil {
		t.Fatalf("prompt after load: %v", err)
	}
	reqs := script.Requests()
	last := reqs[len(reqs)-1]
	var all strings.Builder
	for _, m := range last.Messages {
		all.WriteString(m.Text)
	}
	if !strings.Contains(all.String(), "first question") || !strings.Contains(all.String(), "alpha") {
		t.Errorf("the request after load lacks the earlier turn:\n%s", all.String())
	}
}

// Loading a session that is not there is invalid params, not a crash.
func TestLoadUnknownSession(t *testing.T) {
	h := start(t, "", llmtest.Texts(), false)
	_, err := h.conn.LoadSession(t.Context(), acp.LoadSessionRequest{SessionId: "20260101-000000-00000000", Cwd: h.dir, McpServers: []acp.McpServer{}})
	wantCode(t, err, -32602)
}

// session/cancel while the model streams ends the turn with the
// cancelled stop reason, after the updates already sent.
func TestCancelMidStream(t *testing.T) {
	h := start(t, "", llmtest.NewScript(llmtest.Reply{Text: "Starting a long answer", Block: true}), false)
	id := h.newSession()
	type result struct {
		resp acp.PromptResponse
		err  error
	}
	done := make(chan result, 1)
	go func() {
		resp, err := h.prompt(id, "write a lot")
		done <- result{resp, err}
	}()
	h.client.waitFor(t, func(u acp.SessionUpdate) bool { return u.AgentMessageChunk != nil })
	if err := h.conn.Cancel(t.Context(), acp.CancelNotification{SessionId: id}); err != nil {
		t.Fatalf("cancel: %v", err)
	}
	r := <-done
	if r.err != nil || r.resp.StopReason != acp.StopReasonCancelled {
		t.Fatalf("prompt = %+v, %v; want the cancelled stop reason", r.resp, r.err)
	}
}

// In plan mode a write is refused without asking, the model is told,
// and the file is not created; the client hears of the mode.
func TestPlanModeRefusesWrites(t *testing.T) {
	h := start(t, "", llmtest.Texts(createCall("new.txt", "x"), "Here is my plan."), false)
	id := h.newSession()
	if _, err := h.conn.SetSessionMode(t.Context(), acp.SetSessionModeRequest{SessionId: id, ModeId: "plan"}); err != nil {
		t.Fatalf("set_mode: %v", err)
	}
	if _, err := h.prompt(id, "add new.txt"); err != nil {
		t.Fatalf("prompt: %v", err)
	}
	if _, err := os.Stat(filepath.Join(h.dir, "new.txt")); !os.IsNotExist(err) {
		t.Errorf("new.txt exists (%v): plan mode must refuse the write", err)
	}
	if len(h.client.asked) != 0 {
		t.Errorf("the client was asked %d times; plan mode asks nobody", len(h.client.asked))
	}
	got := h.client.received()
	for _, want := range []string{`"sessionUpdate":"current_mode_update"`, `"currentModeId":"plan"`, `"status":"failed"`, `TOOL_POLICY_DENIED`} {
		if !strings.Contains(got, want) {
			t.Errorf("updates lack %s:\n%s", want, got)
		}
	}
	_, err := h.conn.SetSessionMode(t.Context(), acp.SetSessionModeRequest{SessionId: id, ModeId: "yolo"})
	wantCode(t, err, -32602)
}

// With the client's fs, the model reads the unsaved buffer, its edit is
// handed to the editor (with a diff in the tool call), and the text it
// replaced is backed up: the disk is the editor's to save.
func TestUnsavedBufferThroughTheClient(t *testing.T) {
	script := llmtest.Texts(readCall("notes.md"),
		`<tool_call name="write_file" id="1"><operation_type>replace</operation_type><file_path>notes.md</file_path><old_text>unsaved</old_text><content>edited</content></tool_call>`,
		"Done.")
	h := start(t, "", script, true)
	h.writeFile("notes.md", "saved text\n")
	abs := filepath.Join(h.dir, "notes.md")
	h.client.buffers[abs] = "unsaved text\n"
	id := h.newSession()
	if _, err := h.prompt(id, "edit notes"); err != nil {
		t.Fatalf("prompt: %v", err)
	}
	second := script.Requests()[1].Messages
	if last := second[len(second)-1].Text; !strings.Contains(last, "<![CDATA[unsaved text\n]]>") {
		t.Errorf("the model read %q, want the buffer's text", last)
	}
	if len(h.client.writes) != 1 || h.client.writes[0].Content != "edited text\n" || h.client.writes[0].Path != abs {
		t.Fatalf("editor writes = %+v, want notes.md as the buffer edited", h.client.writes)
	}
	if b, _ := os.ReadFile(abs); string(b) != "saved text\n" {
		t.Errorf("the disk holds %q; the agent must not write under the editor's buffer", b)
	}
	if got := h.client.received(); !strings.Contains(got, `"type":"diff"`) || !strings.Contains(got, `"newText":"edited text\n"`) {
		t.Errorf("no diff in the tool call's updates:\n%s", got)
	}
	blobs, _ := filepath.Glob(filepath.Join(h.dir, ".agent", "backups", "*", "*"))
	if len(blobs) != 1 {
		t.Fatalf("backups = %v, want the buffer's old text", blobs)
	}
	if b, _ := os.ReadFile(blobs[0]); string(b) != "unsaved text\n" {
		t.Errorf("backup = %q, want the text the edit replaced", b)
	}
}

// "Always" is for the rest of the session: a second write of the same
// tool is not asked about; "cancelled" ends the turn.
func TestPermissionAlwaysAndCancelled(t *testing.T) {
	h := start(t, "", llmtest.Texts(createCall("a.txt", "a"), createCall("b.txt", "b"), "Both.", createCall("c.txt", "c")), false)
	id := h.newSession()
	h.client.answer = "allow_always"
	if _, err := h.prompt(id, "make a and b"); err != nil {
		t.Fatalf("prompt: %v", err)
	}
	if len(h.client.asked) != 1 {
		t.Errorf("asked %d times, want once: allow_always covers the second write", len(h.client.asked))
	}
	for _, name := range []string{"a.txt", "b.txt"} {
		if _, err := os.Stat(filepath.Join(h.dir, name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	h2 := start(t, "", llmtest.Texts(createCall("c.txt", "c")), false)
	h2.client.answer = ""
	resp, err := h2.prompt(h2.newSession(), "make c")
	if err != nil || resp.StopReason != acp.StopReasonCancelled {
		t.Errorf("prompt = %+v, %v; want cancelled when the permission request is", resp, err)
	}
	if _, err := os.Stat(filepath.Join(h2.dir, "c.txt")); !os.IsNotExist(err) {
		t.Errorf("c.txt exists (%v)", err)
	}
}

// A slash command runs the conversation's command, its reply the
// agent's message; the commands are announced after session/new.
func TestSlashCommand(t *testing.T) {
	h := start(t, "", llmtest.Texts(), false)
	id := h.newSession()
	h.client.waitFor(t, func(u acp.SessionUpdate) bool { return u.AvailableCommandsUpdate != nil })
	if _, err := h.prompt(id, "/tools"); err != nil {
		t.Fatalf("prompt: %v", err)
	}
	if got := h.client.received(); !strings.Contains(got, "read_file") {
		t.Errorf("/tools did not list read_file:\n%s", got)
	}
	if _, err := h.prompt(id, "/clear"); err != nil {
		t.Fatalf("prompt: %v", err)
	}
	if got := h.client.received(); !strings.Contains(got, "/clear is not available here") {
		t.Errorf("/clear was not refused:\n%s", got)
	}
	if h.script.Remaining() != 0 || len(h.script.Requests()) != 0 {
		t.Errorf("a command reached the model")
	}
}

func wantCode(t *testing.T, err error, code int) {
	t.Helper()
	re, ok := err.(*acp.RequestError)
	if !ok || re.Code != code {
		t.Fatalf("error = %v, want JSON-RPC code %d", err, code)
	}
}

// A resource link to a project file is read through read_file (so it
// counts as read: a rewrite may follow without another read), an
// embedded resource is given as the editor sent it, and an image to a
// model that sees none is invalid params.
func TestPromptContent(t *testing.T) {
	script := llmtest.Texts(`<tool_call name="write_file" id="1"><operation_type>rewrite</operation_type><file_path>a.txt</file_path><content>new</content></tool_call>`, "Done.")
	h := start(t, "", script, false)
	h.writeFile("a.txt", "old\n")
	id := h.newSession()
	_, err := h.conn.Prompt(t.Context(), acp.PromptRequest{SessionId: id, Prompt: []acp.ContentBlock{
		acp.TextBlock("rewrite this"),
		acp.ResourceLinkBlock("a.txt", "file://"+filepath.Join(h.dir, "a.txt")),
		acp.ResourceBlock(acp.EmbeddedResourceResource{TextResourceContents: &acp.TextResourceContents{Uri: "file:///elsewhere/b.txt", Text: "from the editor"}}),
	}})
	if err != nil {
		t.Fatalf("prompt: %v", err)
	}
	first := script.Requests()[0].Messages
	msg := first[len(first)-1].Text
	for _, want := range []string{"rewrite this", `<file path="a.txt">`, "old", "from the editor"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the message lacks %q:\n%s", want, msg)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(h.dir, "a.txt")); string(b) != "new\n" {
		t.Errorf("a.txt = %q: the attached file should count as read", b)
	}
	_, err = h.conn.Prompt(t.Context(), acp.PromptRequest{SessionId: id, Prompt: []acp.ContentBlock{acp.TextBlock("look"), acp.ImageBlock("aGVsbG8=", "image/png")}})
	wantCode(t, err, -32602)
}
