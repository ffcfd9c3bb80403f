package audio_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/audio"
	"github.com/agentcli/agent/tts"
	"github.com/agentcli/agent/tts/ttstest"
)

// TestTextLimitInCharacters: the limit counts characters, as the model
// does, and the refusal says how much was given and the limit.
func TestTextLimitInCharacters(t *testing.T) {
	f := setup(t, 0, false)
	// 20,000 characters of three bytes each: 60 KB, within the limit.
	res := f.call(t, map[string]string{"text": strings.Repeat("語", 20_000), "output_path": "ja.wav"})
	if res.IsError() {
		t.Fatalf("20000 characters: %s %s, want it spoken", res.Code, res.Message)
	}
	res = f.call(t, map[string]string{"text": strings.Repeat("é", audio.MaxText+1), "output_path": "fr.wav"})
	want := "text is 32001 characters, more than the 32000 one call speaks"
	if res.Code != tools.CodeSchemaInvalid || !strings.Contains(res.Message, want) {
		t.Errorf("32001 characters: %s %q, want %s with %q", res.Code, res.Message, tools.CodeSchemaInvalid, want)
	}
}

// TestOutputLimit: a text whose speech is longer than the speaker's
// bound is refused with FILE_TOO_LARGE, and no file is written.
func TestOutputLimit(t *testing.T) {
	fake := ttstest.NewGemini(t)
	g, err := tts.NewGemini(t.Context(), tts.GeminiOptions{APIKey: "k", BaseURL: fake.URL, MaxInput: 200, Retry: tts.Retry{Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }}})
	if err != nil {
		t.Fatal(err)
	}
	w := &rootWriter{dir: t.TempDir()}
	reg := tools.NewRegistry(audio.New(w, &tts.Speaker{Engine: g, MaxSize: 100_000}))
	res, err := reg.Call(t.Context(), audio.Name, map[string]string{"text": strings.Repeat("Nine trillion and then some more. ", 200), "output_path": "long.wav"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Code != tools.CodeFileTooLarge || !strings.Contains(res.Message, "split the text") || !strings.Contains(res.Message, "no file was written") {
		t.Errorf("result = %s %q, want %s", res.Code, res.Message, tools.CodeFileTooLarge)
	}
	if got := files(t, w.dir); len(got) != 0 {
		t.Errorf("left behind: %v", got)
	}
}
