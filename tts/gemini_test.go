package tts_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentcli/agent/tts"
	"github.com/agentcli/agent/tts/ttstest"
)

func newGemini(t testing.TB, fake *ttstest.Gemini, maxInput int) *tts.Gemini {
	t.Helper()
	g, err := tts.NewGemini(t.Context(), tts.GeminiOptions{
		APIKey: "test-key", BaseURL: fake.URL, MaxInput: maxInput,
		// The waits between retries are skipped, not spent.
		Retry: tts.Retry{Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }},
	})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// numbered returns paragraphs of sentences, each sentence starting with
// its own number, so the fake's mark of a piece is its first sentence.
func numbered(paras, sentences int) string {
	var b strings.Builder
	n := 1
	for p := range paras {
		if p > 0 {
			b.WriteString("\n\n")
		}
		for s := range sentences {
			if s > 0 {
				b.WriteString(" ")
			}
			fmt.Fprintf(&b, "Sentence %d is here to be spoken aloud.", n)
			n++
		}
	}
	return b.String()
}

func TestGeminiSingleRequest(t *testing.T) {
	fake := ttstest.NewGemini(t)
	sp := &tts.Speaker{Engine: newGemini(t, fake, 0)}
	text := "Hello, this is a demonstration of the audio generation tool."
	speech, err := sp.Speak(t.Context(), text, "zephyr")
	if err != nil {
		t.Fatal(err)
	}
	wav, err := speech.WAV()
	if err != nil {
		t.Fatal(err)
	}
	a, err := tts.ReadWAV(wav)
	if err != nil {
		t.Fatal(err)
	}
	want := tts.Format{SampleRate: 24000, Channels: 1, Bits: 16}
	if a.Format != want {
		t.Errorf("format = %v, want %v", a.Format, want)
	}
	wantDur := time.Duration(len(text)) * time.Millisecond // the fake: 1 ms a byte
	if a.Duration() != wantDur || speech.Duration() != wantDur {
		t.Errorf("duration = %v (speech says %v), want %v", a.Duration(), speech.Duration(), wantDur)
	}
	if int64(len(wav)) != speech.Size() {
		t.Errorf("len(wav) = %d, Size() = %d", len(wav), speech.Size())
	}
	reqs := fake.Requests()
	if len(reqs) != 1 || reqs[0].Model != tts.DefaultGeminiModel || reqs[0].Text != text {
		t.Fatalf("requests = %+v", reqs)
	}
	gc := reqs[0].Body["generationConfig"].(map[string]any)
	if got := fmt.Sprint(gc["responseModalities"]); got != "[AUDIO]" {
		t.Errorf("responseModalities = %s", got)
	}
	voice := dig(gc, "speechConfig", "voiceConfig", "prebuiltVoiceConfig", "voiceName")
	if voice != "Zephyr" || speech.Voice != "Zephyr" {
		t.Errorf("voice on the wire = %v, speech.Voice = %q; want Zephyr", voice, speech.Voice)
	}
}

func dig(m any, keys ...string) any {
	for _, k := range keys {
		mm, ok := m.(map[string]any)
		if !ok {
			return nil
		}
		m = mm[k]
	}
	return m
}

// TestGeminiLongText checks the join: several requests, in order, with no
// click at a join and a pause at each paragraph boundary.
func TestGeminiLongText(t *testing.T) {
	fake := ttstest.NewGemini(t)
	fake.Delay = 20 * time.Millisecond // so that requests overlap
	sp := &tts.Speaker{Engine: newGemini(t, fake, 200)}
	text := numbered(4, 8) // 4 paragraphs of ~330 bytes: 2 pieces each
	speech, err := sp.Speak(t.Context(), text, "")
	if err != nil {
		t.Fatal(err)
	}
	reqs := fake.Requests()
	if len(reqs) != 8 || speech.Pieces != 8 {
		t.Fatalf("%d requests, %d pieces; want 8", len(reqs), speech.Pieces)
	}
	if m := fake.MaxInFlight(); m > tts.DefaultConcurrency || m < 2 {
		t.Errorf("max requests at once = %d, want 2..%d", m, tts.DefaultConcurrency)
	}
	wav, _ := speech.WAV()
	a, err := tts.ReadWAV(wav)
	if err != nil {
		t.Fatal(err)
	}
	samples := samples16(a.PCM)
	segs := segments(samples, 100)
	if len(segs) != 8 {
		t.Fatalf("%d sounding segments, want 8", len(segs))
	}
	pieces := tts.Split(text, 200)
	for i, s := range segs {
		wantAmp := ttstest.Amplitude(ttstest.Marker(pieces[i].Text))
		if peak := peakOf(samples[s.start:s.end]); peak != wantAmp {
			t.Errorf("segment %d has peak %d, want %d (piece %q...): pieces out of order", i, peak, wantAmp, pieces[i].Text[:20])
		}
		if i == 0 {
			continue
		}
		gap := time.Duration(s.start-segs[i-1].end) * time.Second / 24000
		want := tts.DefaultPiecePause
		if pieces[i-1].ParagraphEnd {
			want = tts.DefaultParagraphPause
		}
		// The gap is the pause plus the silent edge samples of the fades.
		if gap < want || gap > want+5*time.Millisecond {
			t.Errorf("gap before segment %d = %v, want %v (paragraph end: %v)", i, gap, want, pieces[i-1].ParagraphEnd)
		}
	}
	// The largest step between neighbouring samples around each join is
	// no larger than the largest inside the two pieces: no click.
	for i := 1; i < len(segs); i++ {
		prev, next := segs[i-1], segs[i]
		inside := max(maxStep(samples[prev.start:prev.end-200]), maxStep(samples[next.start+200:next.end]))
		join := samples[prev.end-200 : next.start+200]
		if st := maxStep(join); st > inside {
			t.Errorf("join %d has a step of %d, larger than the pieces' %d", i, st, inside)
		}
	}
	// Without fades the same tones would click: the test can fail.
	raw := append(samples16(ttstest.Tone(240, 3000)), samples16(ttstest.Tone(240, 3000))...)
	if maxStep(raw) <= maxStep(raw[:240]) {
		t.Fatal("the fake's tones would join without a click; the check proves nothing")
	}
}

type segment struct{ start, end int }

// segments finds the sounding stretches, separated by at least minGap
// zero samples.
func segments(s []int, minGap int) []segment {
	var out []segment
	zeros, start := 0, -1
	for i, v := range s {
		if v != 0 {
			if start < 0 {
				start = i
			} else if zeros >= minGap {
				out = append(out, segment{start, i - zeros})
				start = i
			}
			zeros = 0
			continue
		}
		zeros++
	}
	if start >= 0 {
		out = append(out, segment{start, len(s) - zeros})
	}
	return out
}

func samples16(pcm []byte) []int {
	out := make([]int, len(pcm)/2)
	for i := range out {
		out[i] = int(int16(uint16(pcm[2*i]) | uint16(pcm[2*i+1])<<8))
	}
	return out
}

func peakOf(s []int) int {
	p := 0
	for _, v := range s {
		p = max(p, v, -v)
	}
	return p
}

func maxStep(s []int) int {
	m := 0
	for i := 1; i < len(s); i++ {
		d := s[i] - s[i-1]
		m = max(m, d, -d)
	}
	return m
}

func TestGeminiMultiSpeaker(t *testing.T) {
	fake := ttstest.NewGemini(t)
	sp := &tts.Speaker{Engine: newGemini(t, fake, 0)}
	text := "Ana: Did you read the lesson?\nBen: Twice, and it still surprised me."
	speech, err := sp.Speak(t.Context(), text, "Ana:kore, Ben:PUCK")
	if err != nil {
		t.Fatal(err)
	}
	if speech.Voice != "Ana:Kore,Ben:Puck" {
		t.Errorf("voice = %q", speech.Voice)
	}
	reqs := fake.Requests()
	if len(reqs) != 1 || reqs[0].Text != text {
		t.Fatalf("requests = %+v", reqs)
	}
	sc := dig(reqs[0].Body, "generationConfig", "speechConfig").(map[string]any)
	if sc["voiceConfig"] != nil {
		t.Errorf("voiceConfig sent with a multi-speaker config: %v", sc)
	}
	cfgs, _ := dig(sc, "multiSpeakerVoiceConfig", "speakerVoiceConfigs").([]any)
	var got []string
	for _, c := range cfgs {
		got = append(got, fmt.Sprint(dig(c, "speaker"), "=", dig(c, "voiceConfig", "prebuiltVoiceConfig", "voiceName")))
	}
	if strings.Join(got, " ") != "Ana=Kore Ben=Puck" {
		t.Errorf("speakers on the wire = %v", got)
	}
}

func TestGeminiVoices(t *testing.T) {
	fake := ttstest.NewGemini(t)
	g := newGemini(t, fake, 0)
	voices, _ := g.Voices(t.Context())
	if len(voices) != 30 || voices[0].Name != "Zephyr" {
		t.Errorf("%d voices, first %v", len(voices), voices[0])
	}
	for _, bad := range []string{"Nobody", "Ana:Kore", "Ana:Kore,Ana:Puck", "Ana:Kore,Ben:Nope", "Ana:Kore,Ben:Puck,Cy:Leda", "$(rm -rf ~)"} {
		_, err := g.Voice(t.Context(), bad)
		var ve *tts.VoiceError
		if !errors.As(err, &ve) || !strings.Contains(err.Error(), "Zephyr, Puck") {
			t.Errorf("Voice(%q) = %v, want a VoiceError listing the voices", bad, err)
		}
	}
	if len(fake.Requests()) != 0 {
		t.Error("a bad voice reached the server")
	}
}

func TestGeminiFailures(t *testing.T) {
	t.Run("third piece fails", func(t *testing.T) {
		fake := ttstest.NewGemini(t)
		fake.Fail = func(r ttstest.Request, _ int) int {
			if ttstest.Marker(r.Text) == 3 {
				return 400
			}
			return 0
		}
		sp := &tts.Speaker{Engine: newGemini(t, fake, 50), Concurrency: 1}
		_, err := sp.Speak(t.Context(), numbered(1, 6), "")
		var pe *tts.ProviderError
		if !errors.As(err, &pe) || pe.Piece != 3 || pe.Pieces != 6 || !strings.Contains(err.Error(), "HTTP 400: fake failure 400") {
			t.Fatalf("err = %v, want piece 3 of 6 failed with the server's reason", err)
		}
		if n := len(fake.Requests()); n != 3 {
			t.Errorf("%d requests after the failure of the third (one at a time), want 3", n)
		}
	})
	t.Run("429 and 503 retried", func(t *testing.T) {
		fake := ttstest.NewGemini(t)
		fake.Fail = func(_ ttstest.Request, attempt int) int {
			return map[int]int{1: 429, 2: 503}[attempt]
		}
		sp := &tts.Speaker{Engine: newGemini(t, fake, 0)}
		if _, err := sp.Speak(t.Context(), "Once more.", ""); err != nil {
			t.Fatal(err)
		}
		if n := len(fake.Requests()); n != 3 {
			t.Errorf("%d requests, want 3", n)
		}
	})
	t.Run("500 until attempts run out", func(t *testing.T) {
		fake := ttstest.NewGemini(t)
		fake.Fail = func(ttstest.Request, int) int { return 500 }
		_, err := (&tts.Speaker{Engine: newGemini(t, fake, 0)}).Speak(t.Context(), "Never.", "")
		if err == nil || !strings.Contains(err.Error(), "HTTP 500") || len(fake.Requests()) != 3 {
			t.Errorf("err = %v after %d requests, want HTTP 500 after 3", err, len(fake.Requests()))
		}
	})
	t.Run("not PCM", func(t *testing.T) {
		fake := ttstest.NewGemini(t)
		fake.MIME = "audio/mpeg"
		_, err := (&tts.Speaker{Engine: newGemini(t, fake, 0)}).Speak(t.Context(), "Hi.", "")
		if err == nil || !strings.Contains(err.Error(), "not raw PCM") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("rate from the MIME type", func(t *testing.T) {
		fake := ttstest.NewGemini(t)
		fake.MIME = "audio/L16;codec=pcm;rate=16000"
		speech, err := (&tts.Speaker{Engine: newGemini(t, fake, 0)}).Speak(t.Context(), "Hi.", "")
		if err != nil || speech.Format.SampleRate != 16000 {
			t.Errorf("speech = %+v, err = %v; want 16000 Hz", speech, err)
		}
	})
	t.Run("no key", func(t *testing.T) {
		_, err := tts.NewGemini(t.Context(), tts.GeminiOptions{})
		if !errors.Is(err, tts.ErrNoEngine) || !strings.Contains(err.Error(), "GEMINI_API_KEY") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		fake := ttstest.NewGemini(t)
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		_, err := (&tts.Speaker{Engine: newGemini(t, fake, 0)}).Speak(ctx, "Hi.", "")
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	})
}
