package tts_test

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/genai"

	"github.com/agentcli/agent/tts"
	"github.com/agentcli/agent/tts/ttstest"
)

// benchText is n bytes of English prose in paragraphs of about 600 bytes,
// like an article: made at run time, never stored.
func benchText(n int) string {
	sentences := []string{
		"The agent reads the project before it changes anything.",
		"Every overwrite is backed up, so nothing is ever lost.",
		"A long text is split at paragraphs and spoken piece by piece.",
		"Offline voices need no key and work on any machine.",
		"Studio voices arrive when a Gemini key is set.",
	}
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		if i > 0 && i%11 == 0 {
			b.WriteString("\n\n")
		} else if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString(sentences[i%len(sentences)])
	}
	return b.String()[:n]
}

// BenchmarkGeminiPiece measures what the Gemini path adds per piece to
// the bare SDK call it makes: the same pieces are sent once with
// genai.Models.GenerateContent alone and once through Speaker.Speak
// (split, voice, retry wrapper, decoding the MIME type, fades, pauses and
// writing the WAV), one at a time, against a fake server on 127.0.0.1 that
// answers at once, with 1 ms of 24 kHz audio a byte of text (real speech
// is some 65 times more, which costs the SDK's JSON decoding the same in
// both paths, and would only bury the difference in noise). It reports:
//
//	speak-ms/piece     per piece through Speak
//	sdk-ms/piece       per piece through the SDK alone
//	overhead-ms/piece  the difference (target: under 2 ms)
func BenchmarkGeminiPiece(b *testing.B) {
	fake := ttstest.NewGemini(b)
	g, err := tts.NewGemini(b.Context(), tts.GeminiOptions{APIKey: "k", BaseURL: fake.URL, MaxInput: 1000})
	if err != nil {
		b.Fatal(err)
	}
	sp := &tts.Speaker{Engine: g, Concurrency: 1}
	client, err := genai.NewClient(b.Context(), &genai.ClientConfig{APIKey: "k", Backend: genai.BackendGeminiAPI, HTTPOptions: genai.HTTPOptions{BaseURL: fake.URL}})
	if err != nil {
		b.Fatal(err)
	}
	text := benchText(6000)
	pieces := tts.Split(text, g.MaxInput())
	cfg := &genai.GenerateContentConfig{ResponseModalities: []string{"AUDIO"}, SpeechConfig: &genai.SpeechConfig{
		VoiceConfig: &genai.VoiceConfig{PrebuiltVoiceConfig: &genai.PrebuiltVoiceConfig{VoiceName: "Zephyr"}}}}
	var speakT, sdkT time.Duration
	n := 0
	for b.Loop() {
		t0 := time.Now()
		for _, p := range pieces {
			resp, err := client.Models.GenerateContent(b.Context(), tts.DefaultGeminiModel, genai.Text(p.Text), cfg)
			if err != nil || len(resp.Candidates[0].Content.Parts[0].InlineData.Data) == 0 {
				b.Fatal(err)
			}
		}
		t1 := time.Now()
		speech, err := sp.Speak(b.Context(), text, "")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := speech.WriteTo(io.Discard); err != nil {
			b.Fatal(err)
		}
		speakT += time.Since(t1)
		sdkT += t1.Sub(t0)
		n += len(pieces)
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) / float64(n) }
	b.ReportMetric(ms(speakT), "speak-ms/piece")
	b.ReportMetric(ms(sdkT), "sdk-ms/piece")
	b.ReportMetric(ms(speakT-sdkT), "overhead-ms/piece")
}

// BenchmarkTTSProcess compares whole processes on a 20 KB text: `agent
// tts --provider espeak` (split, three pieces at a time, joined) against
// `espeak-ng -w` speaking the same file in one run. Target: the agent
// takes at most 1.1 times as long. It reports agent-ms, espeak-ms and
// ratio (agent / espeak) per run.
func BenchmarkTTSProcess(b *testing.B) {
	if _, err := tts.FindEspeak(); err != nil {
		if os.Getenv("CI") != "" {
			b.Fatal(err)
		}
		b.Skip(err)
	}
	dir := b.TempDir()
	bin := filepath.Join(b.TempDir(), "agent")
	if out, err := exec.Command("go", "build", "-ldflags", "-s -w", "-o", bin, "../cmd/agent").CombinedOutput(); err != nil {
		b.Fatalf("build: %v\n%s", err, out)
	}
	textFile := filepath.Join(dir, "text.txt")
	if err := os.WriteFile(textFile, []byte(benchText(20<<10)), 0o644); err != nil {
		b.Fatal(err)
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "XDG_CONFIG_HOME=" + dir}
	run := func(name string, args ...string) time.Duration {
		cmd := exec.Command(name, args...)
		cmd.Env, cmd.Dir = env, dir
		t0 := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%s: %v\n%s", name, err, out)
		}
		return time.Since(t0)
	}
	var agentT, espeakT time.Duration
	for b.Loop() {
		agentT += run(bin, "tts", "--provider", "espeak", "--file", textFile, "-o", filepath.Join(dir, "a.wav"), "--force")
		espeakT += run("espeak-ng", "-v", "en-us", "-w", filepath.Join(dir, "e.wav"), "-f", textFile)
	}
	n := float64(b.N)
	b.ReportMetric(float64(agentT.Milliseconds())/n, "agent-ms")
	b.ReportMetric(float64(espeakT.Milliseconds())/n, "espeak-ms")
	b.ReportMetric(float64(agentT)/float64(espeakT), "ratio")
	b.ReportMetric(0, "ns/op")
	a, _ := os.ReadFile(filepath.Join(dir, "a.wav"))
	e, _ := os.ReadFile(filepath.Join(dir, "e.wav"))
	b.Logf("agent wrote %d bytes, espeak-ng %d", len(a), len(e))
}
