package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentcli/agent/tts"
	"github.com/agentcli/agent/tts/ttstest"
)

// ttsEnv isolates a test from the user's config and keys; gemini points
// the speech engine at a fake server (through the SDK's own variable).
func ttsEnv(t *testing.T, fake *ttstest.Gemini) {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	for _, k := range []string{"GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_GEMINI_BASE_URL", "AGENT_PROVIDER", "AGENT_BASE_URL", "OPENAI_BASE_URL"} {
		t.Setenv(k, "")
	}
	if fake != nil {
		t.Setenv("GEMINI_API_KEY", "test-key")
		t.Setenv("GOOGLE_GEMINI_BASE_URL", fake.URL)
	}
}

func needEspeakCmd(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("espeak-ng"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("espeak-ng is required under CI")
		}
		t.Skip("espeak-ng not installed")
	}
}

func runAgentIO(t *testing.T, s *streams, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	s.Out, s.ErrOut = &out, &errOut
	if s.In == nil {
		s.In = strings.NewReader("")
	}
	code := execute(t.Context(), s, args)
	return out.String(), errOut.String(), code
}

func readWAV(t *testing.T, path string) tts.Audio {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	a, err := tts.ReadWAV(data)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestTTSEspeak(t *testing.T) {
	needEspeakCmd(t)
	ttsEnv(t, nil)
	dir := t.TempDir()
	out := filepath.Join(dir, "a.wav")
	stdout, errOut, code := runAgent(t, "tts", "Hello", "from", "the", "command", "line.", "-o", out)
	if code != 0 || !strings.Contains(stdout, "wrote "+out) || !strings.Contains(stdout, "espeak voice en-us") {
		t.Fatalf("exit %d: %s%s", code, stdout, errOut)
	}
	if a := readWAV(t, out); a.Format.SampleRate != 22050 || a.Duration().Seconds() < 1 {
		t.Errorf("wav %v lasting %v", a.Format, a.Duration())
	}
	// From standard input, on a terminal's stderr: the progress bar.
	text := strings.Repeat("A sentence of a paragraph. ", 3) + "\n\n" + strings.Repeat("Another one follows here. ", 3)
	_, errOut, code = runAgentIO(t, &streams{In: strings.NewReader(text), stderrTTY: true}, "tts", "-o", filepath.Join(dir, "b.wav"), "--voice", "EN-GB")
	if code != 0 || !strings.Contains(errOut, "] 2/2 pieces") {
		t.Errorf("exit %d, stderr %q, want a progress bar", code, errOut)
	}
	// From a file, to standard output.
	os.WriteFile(filepath.Join(dir, "t.txt"), []byte("Text in a file."), 0o644)
	stdout, errOut, code = runAgent(t, "tts", "--file", filepath.Join(dir, "t.txt"), "-o", "-")
	if a, err := tts.ReadWAV([]byte(stdout)); code != 0 || err != nil || len(a.PCM) == 0 || !strings.Contains(errOut, "s of speech") {
		t.Errorf("exit %d, %v, stderr %q", code, err, errOut)
	}
}

func TestTTSGemini(t *testing.T) {
	fake := ttstest.NewGemini(t)
	ttsEnv(t, fake)
	// The chat runs on another provider, with its own address: speech
	// must not go there.
	t.Setenv("AGENT_PROVIDER", "openrouter")
	t.Setenv("OPENROUTER_API_KEY", "or-key")
	t.Setenv("AGENT_BASE_URL", "http://127.0.0.1:1/v1")
	out := filepath.Join(t.TempDir(), "g.wav")
	stdout, errOut, code := runAgent(t, "tts", "Hello from Gemini.", "-o", out, "--voice", "kore")
	if code != 0 || !strings.Contains(stdout, "gemini voice Kore") {
		t.Fatalf("exit %d: %s%s", code, stdout, errOut)
	}
	if reqs := fake.Requests(); len(reqs) != 1 || reqs[0].Text != "Hello from Gemini." {
		t.Errorf("requests = %+v", reqs)
	}
	if a := readWAV(t, out); a.Format.SampleRate != 24000 {
		t.Errorf("format %v", a.Format)
	}
}

func TestTTSFailureHalfway(t *testing.T) {
	fake := ttstest.NewGemini(t)
	fake.Fail = func(r ttstest.Request, _ int) int {
		if ttstest.Marker(r.Text) == 3 {
			return 403
		}
		return 0
	}
	ttsEnv(t, fake)
	dir := t.TempDir()
	var paras []string
	for i := 1; i <= 6; i++ {
		paras = append(paras, fmt.Sprintf("Paragraph %d.", i))
	}
	_, errOut, code := runAgentIO(t, &streams{In: strings.NewReader(strings.Join(paras, "\n\n"))}, "tts", "-o", filepath.Join(dir, "x.wav"))
	if code != exitFailed || !strings.Contains(errOut, "piece 3 of 6") || !strings.Contains(errOut, "HTTP 403") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("left behind: %v", ents)
	}
}

func TestTTSBadInput(t *testing.T) {
	needEspeakCmd(t)
	ttsEnv(t, nil)
	dir := t.TempDir()
	existing := filepath.Join(dir, "keep.wav")
	os.WriteFile(existing, []byte("precious"), 0o644)
	big := strings.Repeat("x", 1<<20+1)
	for _, tc := range []struct {
		name  string
		stdin string
		args  []string
		want  string
	}{
		{"no output", "", []string{"tts", "hi"}, "-o out.wav"},
		{"not wav", "", []string{"tts", "hi", "-o", filepath.Join(dir, "a.mp3")}, "writes .wav files"},
		{"exists", "", []string{"tts", "hi", "-o", existing}, "pass --force"},
		{"empty", "  \n", []string{"tts", "-o", filepath.Join(dir, "e.wav")}, "the text is empty"},
		{"too long", big, []string{"tts", "-o", filepath.Join(dir, "b.wav")}, "split it into several files"},
		{"unknown voice", "", []string{"tts", "hi", "-o", filepath.Join(dir, "v.wav"), "--voice", "elvish"}, `unknown voice "elvish"`},
		{"shell characters", "", []string{"tts", "hi", "-o", filepath.Join(dir, "s.wav"), "--voice", "$(touch pwned)"}, "unknown voice"},
		{"unknown provider", "", []string{"tts", "hi", "-o", filepath.Join(dir, "p.wav"), "--provider", "polly"}, "use gemini or espeak"},
		{"gemini without key", "", []string{"tts", "hi", "-o", filepath.Join(dir, "k.wav"), "--provider", "gemini"}, "set GEMINI_API_KEY"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, code := runAgentIO(t, &streams{In: strings.NewReader(tc.stdin)}, tc.args...)
			if code == 0 || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d, stderr %q, want %q", code, clipText(errOut), tc.want)
			}
		})
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("files: %v", ents)
	}
	if b, _ := os.ReadFile(existing); string(b) != "precious" {
		t.Error("existing file changed")
	}
}

func clipText(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

func TestTTSNothingAvailable(t *testing.T) {
	ttsEnv(t, nil)
	t.Setenv("PATH", t.TempDir())
	_, errOut, code := runAgent(t, "tts", "hi", "-o", filepath.Join(t.TempDir(), "a.wav"))
	if code == 0 || !strings.Contains(errOut, "set GEMINI_API_KEY") || !strings.Contains(errOut, "install espeak-ng") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

func TestTTSVoices(t *testing.T) {
	needEspeakCmd(t)
	fake := ttstest.NewGemini(t)
	ttsEnv(t, fake)
	stdout, errOut, code := runAgent(t, "tts", "voices", "--json")
	var lists []struct {
		Provider, Default string
		Voices            []tts.Voice
	}
	if code != 0 || json.Unmarshal([]byte(stdout), &lists) != nil || len(lists) != 2 {
		t.Fatalf("exit %d: %s%s", code, stdout, errOut)
	}
	if lists[0].Provider != "gemini" || lists[0].Default != "Zephyr" || len(lists[0].Voices) != 30 || lists[1].Provider != "espeak" || len(lists[1].Voices) < 50 {
		t.Errorf("lists: %s %s %d, %s %d", lists[0].Provider, lists[0].Default, len(lists[0].Voices), lists[1].Provider, len(lists[1].Voices))
	}
	stdout, _, code = runAgent(t, "tts", "voices", "--provider", "espeak-ng")
	if code != 0 || !strings.Contains(stdout, "en-us (default)") || strings.Contains(stdout, "Zephyr") {
		t.Errorf("exit %d: %s", code, clipText(stdout))
	}
	if len(fake.Requests()) != 0 {
		t.Error("listing voices made a request")
	}
}

// Gemini is sent the words of Markdown, not its syntax (espeak-ng:
// testdata/script/tts_markdown.txtar).
func TestTTSGeminiSpeaksMarkdownAsText(t *testing.T) {
	fake := ttstest.NewGemini(t)
	ttsEnv(t, fake)
	out := filepath.Join(t.TempDir(), "g.wav")
	md := "# Release notes\n\n- **Faster** start, see [the docs](https://example.com/docs)\n- Run `agent tts` to hear them"
	if stdout, errOut, code := runAgentIO(t, &streams{In: strings.NewReader(md)}, "tts", "-o", out); code != 0 {
		t.Fatalf("exit %d: %s%s", code, stdout, errOut)
	}
	var got []string
	for _, r := range fake.Requests() {
		got = append(got, r.Text)
	}
	slices.Sort(got) // the pieces are spoken at once
	want := []string{"Faster start, see the docs\nRun agent tts to hear them", "Release notes"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Gemini was sent %q, want %q", got, want)
	}
}
