// Package ttstest is a fake Gemini speech server for tests: it speaks the
// real REST protocol (generateContent with inline base64 PCM), so the real
// SDK can be pointed at it, and marks each answer so that tests can tell
// the pieces apart in the joined audio.
package ttstest

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Rate is the sample rate the fake answers with, as Gemini does.
const Rate = 24000

// FramesPerByte is how many frames of audio the fake makes per byte of
// text unless Gemini.FramesPerByte says otherwise, so durations follow
// text lengths: 1 ms a byte. Real speech is nearer 65 ms a byte (1600).
const FramesPerByte = 24

// Request is what the fake received in one generateContent call.
type Request struct {
	Model string
	Text  string
	Body  map[string]any // the decoded JSON body
}

// Gemini is a running fake.
type Gemini struct {
	URL string // base URL for the SDK (HTTPOptions.BaseURL)
	// Fail, when set, is asked before each answer: a non-zero status makes
	// the fake answer that error instead (a Google error body).
	Fail func(r Request, attempt int) int
	// Delay holds each answer back, so that concurrent requests overlap.
	Delay time.Duration
	// FramesPerByte overrides the package's FramesPerByte when non-zero.
	FramesPerByte int
	// MIME is the type the fake states; "" means 16-bit mono at Rate.
	MIME string

	mu       sync.Mutex
	requests []Request
	attempts map[string]int
	cache    map[string][]byte
	inFlight int
	maxIn    int
}

var firstNumber = regexp.MustCompile(`\d+`)

// Marker is the number a piece is marked with: the first number in its
// text (0 if none). The fake's tone for it has amplitude Amplitude(marker).
func Marker(text string) int {
	n, _ := strconv.Atoi(firstNumber.FindString(text))
	return n
}

// Amplitude is the peak of the tone the fake sends for a piece marked m.
func Amplitude(m int) int { return 1000 + 50*m }

// NewGemini starts a fake on 127.0.0.1, closed when the test ends.
func NewGemini(t testing.TB) *Gemini {
	t.Helper()
	g := &Gemini{attempts: map[string]int{}}
	srv := httptest.NewServer(http.HandlerFunc(g.serve))
	t.Cleanup(srv.Close)
	g.URL = srv.URL
	return g
}

// Requests returns the requests received, in arrival order.
func (g *Gemini) Requests() []Request {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]Request(nil), g.requests...)
}

// MaxInFlight is the most requests that were being answered at once.
func (g *Gemini) MaxInFlight() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.maxIn
}

func (g *Gemini) serve(w http.ResponseWriter, r *http.Request) {
	model, ok := strings.CutSuffix(strings.TrimPrefix(r.URL.Path, "/v1beta/models/"), ":generateContent")
	if r.Method != http.MethodPost || !ok {
		writeError(w, http.StatusNotFound, "no such method "+r.URL.Path)
		return
	}
	if r.Header.Get("x-goog-api-key") == "" {
		writeError(w, http.StatusUnauthorized, "API key missing")
		return
	}
	var body map[string]any
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		writeError(w, http.StatusBadRequest, "bad JSON: "+err.Error())
		return
	}
	req := Request{Model: model, Text: textOf(body), Body: body}
	g.mu.Lock()
	g.requests = append(g.requests, req)
	g.attempts[req.Text]++
	attempt := g.attempts[req.Text]
	g.inFlight++
	g.maxIn = max(g.maxIn, g.inFlight)
	g.mu.Unlock()
	defer func() {
		g.mu.Lock()
		g.inFlight--
		g.mu.Unlock()
	}()
	time.Sleep(g.Delay)
	if g.Fail != nil {
		if status := g.Fail(req, attempt); status != 0 {
			writeError(w, status, fmt.Sprintf("fake failure %d", status))
			return
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(g.answer(req.Text))
}

// answer is the JSON answer for text, made once per text: benchmarks
// measure the client, not the fake.
func (g *Gemini) answer(text string) []byte {
	g.mu.Lock()
	defer g.mu.Unlock()
	if b, ok := g.cache[text]; ok {
		return b
	}
	mimeType := g.MIME
	if mimeType == "" {
		mimeType = fmt.Sprintf("audio/L16;codec=pcm;rate=%d", Rate)
	}
	fpb := FramesPerByte
	if g.FramesPerByte > 0 {
		fpb = g.FramesPerByte
	}
	pcm := Tone(len(text)*fpb, Amplitude(Marker(text)))
	b, _ := json.Marshal(map[string]any{
		"candidates": []any{map[string]any{
			"content": map[string]any{"role": "model", "parts": []any{map[string]any{
				"inlineData": map[string]any{"mimeType": mimeType, "data": base64.StdEncoding.EncodeToString(pcm)},
			}}},
			"finishReason": "STOP",
		}},
	})
	if g.cache == nil {
		g.cache = map[string][]byte{}
	}
	g.cache[text] = b
	return b
}

// Tone is frames of 16-bit mono PCM: a 440 Hz cosine of peak amp, which
// starts and ends far from zero, so that joining two tones without a fade
// would click.
func Tone(frames, amp int) []byte {
	b := make([]byte, 2*frames)
	for i := range frames {
		v := float64(amp) * math.Cos(2*math.Pi*440*float64(i)/Rate)
		binary.LittleEndian.PutUint16(b[2*i:], uint16(int16(math.Round(v))))
	}
	return b
}

func textOf(body map[string]any) string {
	var sb strings.Builder
	contents, _ := body["contents"].([]any)
	for _, c := range contents {
		parts, _ := c.(map[string]any)["parts"].([]any)
		for _, p := range parts {
			if s, ok := p.(map[string]any)["text"].(string); ok {
				sb.WriteString(s)
			}
		}
	}
	return sb.String()
}

func writeError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{
		"code": status, "message": msg, "status": http.StatusText(status),
	}})
}
