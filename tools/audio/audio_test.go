package audio_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentcli/agent/internal/termtext"
	"github.com/agentcli/agent/prompt"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/audio"
	"github.com/agentcli/agent/tts"
	"github.com/agentcli/agent/tts/ttstest"
)

type fixture struct {
	dir  string
	w    *rootWriter
	reg  *tools.Registry
	fake *ttstest.Gemini
}

// setup builds the tool with the fake Gemini (first, the default) and,
// when installed, the real espeak-ng.
func setup(t *testing.T, maxInput int, withEspeak bool) *fixture {
	t.Helper()
	f := &fixture{dir: t.TempDir(), fake: ttstest.NewGemini(t)}
	f.w = &rootWriter{dir: f.dir}
	g, err := tts.NewGemini(t.Context(), tts.GeminiOptions{APIKey: "k", BaseURL: f.fake.URL, MaxInput: maxInput, Retry: tts.Retry{Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }}})
	if err != nil {
		t.Fatal(err)
	}
	speakers := []*tts.Speaker{{Engine: g}}
	if withEspeak {
		e, err := tts.NewEspeak(tts.EspeakOptions{})
		if err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("espeak-ng is required under CI: %v", err)
			}
			t.Skipf("espeak-ng not installed: %v", err)
		}
		speakers = append(speakers, &tts.Speaker{Engine: e})
	}
	f.reg = tools.NewRegistry(audio.New(f.w, speakers...))
	return f
}

func (f *fixture) call(t *testing.T, args map[string]string) tools.Result {
	t.Helper()
	res, err := f.reg.Call(t.Context(), audio.Name, args)
	if err != nil {
		t.Fatalf("Call: %v", err)
	}
	return res
}

func meta(r tools.Result) map[string]string {
	m := map[string]string{}
	for _, a := range r.Metadata {
		m[a.Name] = a.Value
	}
	return m
}

// files lists everything under dir, temp files included.
func files(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return nil
	})
	return out
}

func TestGenerateGemini(t *testing.T) {
	f := setup(t, 0, false)
	if tool, _ := f.reg.Lookup(audio.Name); strings.Join(tool.Definition().PathParams(), ",") != "output_path" {
		t.Errorf("the tool does not name output_path as its project path: %+v", tool.Definition())
	}
	text := "Hello, this is a demonstration of the audio generation tool."
	res := f.call(t, map[string]string{"text": text, "output_path": "audio/demo.wav", "voice": "zephyr", "provider": "gemini"})
	if res.IsError() {
		t.Fatalf("result = %+v", res)
	}
	data, err := os.ReadFile(filepath.Join(f.dir, "audio", "demo.wav"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := tts.ReadWAV(data)
	if err != nil {
		t.Fatal(err)
	}
	m := meta(res)
	want := map[string]string{"path": "audio/demo.wav", "provider": "gemini", "voice": "Zephyr", "sample_rate": "24000",
		"size": fmt.Sprint(len(data)), "pieces": "1", "duration": fmt.Sprintf("%.1fs", a.Duration().Seconds())}
	for k, v := range want {
		if m[k] != v {
			t.Errorf("metadata %s = %q, want %q (all: %v)", k, m[k], v, m)
		}
	}
	if len(res.Changed) != 1 || res.Changed[0] != "audio/demo.wav" || !strings.HasPrefix(res.Message, "wrote audio/demo.wav") {
		t.Errorf("result = %+v", res)
	}
	// Again: the old file is backed up first.
	res = f.call(t, map[string]string{"text": "Second take.", "output_path": "audio/demo.wav"})
	if res.IsError() || !strings.Contains(res.Message, "backed up") || len(f.w.backups) != 1 || !strings.HasPrefix(f.w.backups[0], "audio/demo.wav=RIFF") {
		t.Errorf("second write: %+v, backups %d", res, len(f.w.backups))
	}
}

func TestGenerateEspeak(t *testing.T) {
	f := setup(t, 0, true)
	res := f.call(t, map[string]string{"text": "Offline speech works without any key.", "output_path": "out.WAV", "provider": "espeak-ng", "voice": "en-gb"})
	m := meta(res)
	if res.IsError() || m["provider"] != "espeak" || m["voice"] != "en-gb" || m["sample_rate"] != "22050" {
		t.Fatalf("result = %+v", res)
	}
	data, _ := os.ReadFile(filepath.Join(f.dir, "out.WAV"))
	if a, err := tts.ReadWAV(data); err != nil || a.Duration() < time.Second {
		t.Errorf("wav: %v, %v", a.Duration(), err)
	}
}

// TestFailureHalfway: the provider refuses the third piece; no file and no
// temp file is left, and the model is told why.
func TestFailureHalfway(t *testing.T) {
	f := setup(t, 60, false)
	f.fake.Fail = func(r ttstest.Request, _ int) int {
		if ttstest.Marker(r.Text) == 3 {
			return 400
		}
		return 0
	}
	var paras []string
	for i := 1; i <= 6; i++ {
		paras = append(paras, fmt.Sprintf("Paragraph %d is long enough to be a piece of its own.", i))
	}
	res := f.call(t, map[string]string{"text": strings.Join(paras, "\n\n"), "output_path": "talk.wav"})
	if res.Code != tools.CodeProviderError || !strings.Contains(res.Message, "piece 3 of 6") || !strings.Contains(res.Message, "fake failure 400") {
		t.Errorf("result = %+v", res)
	}
	if got := files(t, f.dir); len(got) != 0 {
		t.Errorf("left behind: %v", got)
	}
}

func TestBadInput(t *testing.T) {
	f := setup(t, 0, true)
	os.WriteFile(filepath.Join(f.dir, "keep.wav"), []byte("precious"), 0o644)
	tests := []struct {
		name string
		args map[string]string
		code string
		msg  string
	}{
		{"empty text", map[string]string{"text": " \n ", "output_path": "a.wav"}, tools.CodeSchemaInvalid, "text is empty"},
		{"1 MB of text", map[string]string{"text": strings.Repeat("word ", 1<<20/5+1), "output_path": "a.wav"}, tools.CodeSchemaInvalid, "split it into several files"},
		{"unknown voice", map[string]string{"text": "hi", "output_path": "a.wav", "voice": "Nobody"}, tools.CodeSchemaInvalid, "Zephyr, Puck"},
		{"unknown espeak voice", map[string]string{"text": "hi", "output_path": "a.wav", "voice": "elvish", "provider": "espeak"}, tools.CodeSchemaInvalid, "en-us"},
		{"voice with shell characters", map[string]string{"text": "hi", "output_path": "a.wav", "voice": "en; touch pwned", "provider": "espeak"}, tools.CodeSchemaInvalid, "unknown voice"},
		{"outside the root", map[string]string{"text": "hi", "output_path": "../a.wav"}, tools.CodePathOutsideRoot, "outside"},
		{"absolute", map[string]string{"text": "hi", "output_path": "/tmp/a.wav"}, tools.CodePathOutsideRoot, "outside"},
		{"protected folder", map[string]string{"text": "hi", "output_path": ".agent/a.wav"}, tools.CodePathOutsideRoot, "protected"},
		{"not .wav", map[string]string{"text": "hi", "output_path": "a.mp3"}, tools.CodeUnsupportedType, ".wav"},
		{"no extension", map[string]string{"text": "hi", "output_path": "keep"}, tools.CodeUnsupportedType, ".wav"},
		{"unknown provider", map[string]string{"text": "hi", "output_path": "a.wav", "provider": "polly"}, tools.CodeSchemaInvalid, "use gemini or espeak"},
		{"missing path", map[string]string{"text": "hi"}, tools.CodeSchemaInvalid, "output_path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := f.call(t, tt.args)
			if res.Code != tt.code || !strings.Contains(res.Message, tt.msg) || strings.Contains(res.Message, "\n") {
				t.Errorf("result = %s %q, want %s containing %q", res.Code, termtext.RunePrefix(res.Message, 300), tt.code, tt.msg)
			}
		})
	}
	if got := files(t, f.dir); len(got) != 1 || got[0] != "keep.wav" {
		t.Errorf("files after bad calls: %v", got)
	}
	if len(f.fake.Requests()) != 0 {
		t.Errorf("%d requests reached the provider", len(f.fake.Requests()))
	}
}

func TestNoEspeak(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := tts.Open(t.Context(), tts.Settings{})
	if err == nil || !strings.Contains(err.Error(), "install espeak-ng") || !strings.Contains(err.Error(), "GEMINI_API_KEY") {
		t.Errorf("Open with nothing = %v", err)
	}
	_, err = tts.Open(t.Context(), tts.Settings{Provider: "espeak", GeminiKey: "k"})
	if err == nil || !strings.Contains(err.Error(), "apt-get install espeak-ng") {
		t.Errorf("Open(espeak) without the program = %v", err)
	}
	if got := tts.Available("", nil); len(got) != 0 {
		t.Errorf("Available = %v", got)
	}
}

func TestPreview(t *testing.T) {
	f := setup(t, 0, false)
	tool, _ := f.reg.Lookup(audio.Name)
	pv, ok := tool.(tools.Previewer)
	if !ok {
		t.Fatal("audio_generation has no preview")
	}
	_, in, _ := f.reg.Validate(audio.Name, map[string]string{"text": "Three short words.", "output_path": "x.wav", "voice": "kore"})
	p, res, err := pv.Preview(t.Context(), in)
	if err != nil || res != nil || p.Summary != "speak 3 words into x.wav" || !strings.Contains(strings.Join(p.Lines, "\n"), "gemini, voice Kore") {
		t.Errorf("preview = %+v, %v, %v", p, res, err)
	}
	_, in, _ = f.reg.Validate(audio.Name, map[string]string{"text": "x", "output_path": "x.ogg"})
	if _, res, _ := pv.Preview(t.Context(), in); res == nil || res.Code != tools.CodeUnsupportedType {
		t.Errorf("preview of a bad call = %+v", res)
	}
	if len(f.fake.Requests()) != 0 || len(files(t, f.dir)) != 0 {
		t.Error("a preview spoke or wrote")
	}
}

// TestCatalogSize measures what the tool adds to the real system prompt.
func TestCatalogSize(t *testing.T) {
	f := setup(t, 0, true)
	tool, _ := f.reg.Lookup(audio.Name)
	def := tool.Definition()
	pt := prompt.Tool{Name: def.Name, Description: def.Description}
	for _, p := range def.Params {
		pt.Params = append(pt.Params, prompt.Param{Name: p.Name, Kind: p.Kind.String(), Required: p.Required, Enum: p.Enum, Description: p.Description})
	}
	other := prompt.Tool{Name: "read_file", Description: "Read a file."}
	size := func(ts ...prompt.Tool) int {
		p, err := prompt.Build(context.Background(), prompt.Options{Root: f.dir, Tools: ts, Now: func() time.Time { return time.Time{} }})
		if err != nil {
			t.Fatal(err)
		}
		return len(p.String())
	}
	n := size(other, pt) - size(other)
	t.Logf("catalog entry: %d bytes", n)
	if n >= 450 || n < 200 {
		t.Errorf("catalog entry is %d bytes, want under 450", n)
	}
	if !def.Writes {
		t.Error("audio_generation must be marked as writing")
	}
}
