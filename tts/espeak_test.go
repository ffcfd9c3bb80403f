package tts_test

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentcli/agent/internal/atomicfile"
	"github.com/agentcli/agent/tts"
)

// needEspeak returns the engine, skipping outside CI when espeak-ng is not
// installed and failing under CI, where it must be.
func needEspeak(t testing.TB) *tts.Espeak {
	t.Helper()
	e, err := tts.NewEspeak(tts.EspeakOptions{})
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("espeak-ng is required under CI: %v", err)
		}
		t.Skipf("espeak-ng not installed: %v", err)
	}
	return e
}

func TestEspeakWAV(t *testing.T) {
	e := needEspeak(t)
	sp := &tts.Speaker{Engine: e}
	short := "The quick brown fox jumps over the lazy dog."
	long := strings.Repeat(short+" ", 4) + "\n\n" + strings.Repeat(short+" ", 4)
	var durs []time.Duration
	for _, text := range []string{short, long} {
		speech, err := sp.Speak(t.Context(), text, "")
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "out.wav")
		if err := atomicfile.WriteFile(path, 0o644, func(w io.Writer) error { _, err := speech.WriteTo(w); return err }); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		a, err := tts.ReadWAV(data)
		if err != nil {
			t.Fatal(err)
		}
		if a.Format != (tts.Format{SampleRate: 22050, Channels: 1, Bits: 16}) || speech.Voice != "en-us" {
			t.Errorf("format %v, voice %q", a.Format, speech.Voice)
		}
		// espeak-ng speaks about 175 words a minute: 9 words take 2-5 s.
		words := len(strings.Fields(text))
		perWord := a.Duration() / time.Duration(words)
		if perWord < 200*time.Millisecond || perWord > 600*time.Millisecond {
			t.Errorf("%d words last %v (%v a word)", words, a.Duration(), perWord)
		}
		durs = append(durs, a.Duration())
		soxCheck(t, path, a)
	}
	if durs[1] < 7*durs[0] {
		t.Errorf("8 sentences last %v, one %v", durs[1], durs[0])
	}
}

// soxCheck reads the file with sox --i, which must agree with our reader.
func soxCheck(t *testing.T, path string, a tts.Audio) {
	t.Helper()
	if _, err := exec.LookPath("sox"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("sox is required under CI")
		}
		t.Log("sox not installed: skipping its check")
		return
	}
	out, err := exec.Command("sox", "--i", path).CombinedOutput()
	if err != nil {
		t.Fatalf("sox --i: %v\n%s", err, out)
	}
	s := string(out)
	for _, want := range []string{"Channels       : 1", "Sample Rate    : 22050", "Precision      : 16-bit",
		"= " + itoa(len(a.PCM)/2) + " samples", "Signed Integer PCM"} {
		if !strings.Contains(s, want) {
			t.Errorf("sox --i lacks %q:\n%s", want, s)
		}
	}
}

func TestEspeakVoices(t *testing.T) {
	e := needEspeak(t)
	voices, err := e.Voices(t.Context())
	if err != nil || len(voices) < 20 {
		t.Fatalf("%d voices, err %v", len(voices), err)
	}
	for in, want := range map[string]string{"": "en-us", "EN-US": "en-us", "English_(America)": "en-us", "gmw/en-US": "en-us", "de": "de", "fr": "fr-fr", "EN": "en-gb", "zh": "cmn", "en-us+f3": "en-us+f3"} {
		if got, err := e.Voice(t.Context(), in); got != want || err != nil {
			t.Errorf("Voice(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"elvish", "en; rm -rf /", "$(touch pwned)", "en+`id`", "-w /tmp/x", "en\nde"} {
		_, err := e.Voice(t.Context(), bad)
		var ve *tts.VoiceError
		if !errors.As(err, &ve) || !strings.Contains(err.Error(), "en-us") {
			t.Errorf("Voice(%q) = %v, want a VoiceError listing voices", bad, err)
		}
	}
}

// TestEspeakTextIsNotAnOption: text that looks like options is spoken,
// never obeyed, because it goes on standard input.
func TestEspeakTextIsNotAnOption(t *testing.T) {
	e := needEspeak(t)
	dir := t.TempDir()
	evil := filepath.Join(dir, "evil.wav")
	a, err := e.Synthesize(t.Context(), "-w "+evil+" --stdout hello", "en-us")
	if err != nil || len(a.PCM) == 0 {
		t.Fatalf("err = %v, %d bytes", err, len(a.PCM))
	}
	if _, err := os.Stat(evil); err == nil {
		t.Error("text was read as an option")
	}
}

func TestEspeakMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := tts.NewEspeak(tts.EspeakOptions{})
	if !errors.Is(err, tts.ErrNoEngine) || !strings.Contains(err.Error(), "apt-get install espeak-ng") {
		t.Errorf("err = %v", err)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestEspeakLookPathRefuses: the program is found through the caller's
// LookPath; when it refuses (a plant in the project), the engine is not
// available and the error says the caller's words, not "install it".
func TestEspeakLookPathRefuses(t *testing.T) {
	refused := errors.New("espeak-ng found only in /proj/bin, inside the project: not used; set [programs] espeak-ng in your config")
	look := func(string) (string, error) { return "", refused }
	_, err := tts.NewEspeak(tts.EspeakOptions{LookPath: look})
	if !errors.Is(err, tts.ErrNoEngine) || !strings.Contains(err.Error(), refused.Error()) {
		t.Errorf("NewEspeak err = %v", err)
	}
	_, err = tts.Open(t.Context(), tts.Settings{Provider: "espeak", LookPath: look})
	if err == nil || !strings.Contains(err.Error(), refused.Error()) {
		t.Errorf("Open err = %v", err)
	}
	if got := tts.Available("", look); len(got) != 0 {
		t.Errorf("Available = %v, want none", got)
	}
}
