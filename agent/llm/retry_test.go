package llm

import (
	"context"
	"errors"
	"io"
	"iter"
	"strings"
	"testing"
	"time"

	"github.com/agentcli/agent/internal/backoff"
	"github.com/agentcli/agent/internal/secretval"
)

// script is an Attempt that plays one outcome per call.
type script struct {
	outcomes []outcome
	calls    int
}

type outcome struct {
	text  []string
	err   error
	block bool // wait for ctx after the text
}

func (s *script) attempt(ctx context.Context) iter.Seq2[Chunk, error] {
	o := s.outcomes[min(s.calls, len(s.outcomes)-1)]
	s.calls++
	return func(yield func(Chunk, error) bool) {
		for _, t := range o.text {
			if !yield(Chunk{Text: t}, nil) {
				return
			}
		}
		if o.block {
			<-ctx.Done()
			yield(Chunk{}, ctx.Err())
			return
		}
		if o.err != nil {
			yield(Chunk{}, o.err)
			return
		}
		yield(Chunk{Finish: "stop"}, nil)
	}
}

// sleeps records the waits a policy asks for, without waiting.
type sleeps []time.Duration

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	*s = append(*s, d)
	return ctx.Err()
}

var testEndpoint = Endpoint{Provider: "gemini", Model: "m", BaseURL: "http://127.0.0.1:9", KeySetting: "GEMINI_API_KEY", URLSetting: "GOOGLE_GEMINI_BASE_URL"}

func collect(seq iter.Seq2[Chunk, error]) (string, error) {
	var b strings.Builder
	for c, err := range seq {
		if err != nil {
			return b.String(), err
		}
		b.WriteString(c.Text)
	}
	return b.String(), nil
}

func TestPolicyStream(t *testing.T) {
	status := func(code int, after time.Duration) error {
		return &APIError{Status: code, Message: "boom", RetryAfter: after}
	}
	tests := []struct {
		name     string
		outcomes []outcome
		wantText string
		wantErr  string // substring; "" means success
		calls    int
		waits    int
	}{
		{"success", []outcome{{text: []string{"a", "b"}}}, "ab", "", 1, 0},
		{"429 then success", []outcome{{err: status(429, 0)}, {text: []string{"ok"}}}, "ok", "", 2, 1},
		{"500 three times", []outcome{{err: status(500, 0)}}, "", "gemini server error (500) after 3 attempts: boom: try again later", 3, 2},
		{"503 then success", []outcome{{err: status(503, 0)}, {text: []string{"ok"}}}, "ok", "", 2, 1},
		{"401 not retried", []outcome{{err: status(401, 0)}}, "", "gemini rejected the API key (401): check GEMINI_API_KEY", 1, 0},
		{"403 not retried", []outcome{{err: status(403, 0)}}, "", "gemini refused access (403: boom): check GEMINI_API_KEY", 1, 0},
		{"400 not retried", []outcome{{err: status(400, 0)}}, "", "gemini rejected the request (400: boom)", 1, 0},
		{"404 names the model", []outcome{{err: status(404, 0)}}, "", `does not know model "m"`, 1, 0},
		{"reset before text retried", []outcome{{err: io.ErrUnexpectedEOF}, {text: []string{"ok"}}}, "ok", "", 2, 1},
		{"reset three times", []outcome{{err: io.ErrUnexpectedEOF}}, "", "cannot reach gemini at http://127.0.0.1:9 after 3 attempts: unexpected EOF: check GOOGLE_GEMINI_BASE_URL", 3, 2},
		{"malformed retried", []outcome{{err: ErrMalformed}, {text: []string{"ok"}}}, "ok", "", 2, 1},
		{"drop after text", []outcome{{text: []string{"par"}, err: io.ErrUnexpectedEOF}}, "par", "gemini stream dropped after 3 bytes of text: unexpected EOF", 1, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := &script{outcomes: tc.outcomes}
			var w sleeps
			p := Policy{Sleep: w.sleep, Jitter: func() float64 { return 0 }}
			got, err := collect(p.Stream(t.Context(), testEndpoint, s.attempt))
			if got != tc.wantText {
				t.Errorf("text = %q, want %q", got, tc.wantText)
			}
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("err = %v, want none", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("err = %v, want it to contain %q", err, tc.wantErr)
			}
			if err != nil && strings.Contains(err.Error(), "\n") {
				t.Errorf("err %q has more than one line", err)
			}
			if s.calls != tc.calls {
				t.Errorf("attempts = %d, want %d", s.calls, tc.calls)
			}
			if len(w) != tc.waits {
				t.Errorf("waits = %v, want %d of them", w, tc.waits)
			}
		})
	}
}

func TestPolicyDropIsRecognisable(t *testing.T) {
	s := &script{outcomes: []outcome{{text: []string{"x"}, err: io.ErrUnexpectedEOF}}}
	_, err := collect(Policy{}.Stream(t.Context(), testEndpoint, s.attempt))
	if !errors.Is(err, ErrStreamDropped) {
		t.Fatalf("errors.Is(%v, ErrStreamDropped) = false", err)
	}
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("the cause is lost: %v", err)
	}
}

func TestPolicyHonoursRetryAfter(t *testing.T) {
	s := &script{outcomes: []outcome{{err: &APIError{Status: 429, RetryAfter: 7 * time.Second}}, {text: []string{"ok"}}}}
	var w sleeps
	p := Policy{Sleep: w.sleep, BaseDelay: time.Millisecond}
	if _, err := collect(p.Stream(t.Context(), testEndpoint, s.attempt)); err != nil {
		t.Fatal(err)
	}
	if len(w) != 1 || w[0] != 7*time.Second {
		t.Errorf("waits = %v, want [7s]", w)
	}
}

func TestPolicyRetryAfterBeyondMaxTimeGivesUp(t *testing.T) {
	s := &script{outcomes: []outcome{{err: &APIError{Status: 429, RetryAfter: time.Hour}}, {text: []string{"ok"}}}}
	var w sleeps
	p := Policy{Sleep: w.sleep, MaxTime: time.Minute}
	_, err := collect(p.Stream(t.Context(), testEndpoint, s.attempt))
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindRateLimit {
		t.Fatalf("err = %v, want a rate-limit *Error", err)
	}
	if s.calls != 1 || len(w) != 0 {
		t.Errorf("calls = %d, waits = %v: want one call and no wait", s.calls, w)
	}
}

func TestPolicyBackoff(t *testing.T) {
	p := Policy{BaseDelay: 100 * time.Millisecond, MaxDelay: time.Second}.withDefaults()
	for _, tc := range []struct {
		try    int
		jitter float64
		want   time.Duration
	}{
		{1, 0, 50 * time.Millisecond},
		{1, 0.999999, 100 * time.Millisecond},
		{2, 0, 100 * time.Millisecond},
		{3, 0, 200 * time.Millisecond},
		{5, 0, 500 * time.Millisecond}, // 1.6s capped at 1s
		{40, 0, 500 * time.Millisecond},
	} {
		p.Jitter = func() float64 { return tc.jitter }
		got := p.backoff(tc.try)
		if got < tc.want-time.Millisecond || got > tc.want {
			t.Errorf("backoff(%d) with jitter %v = %v, want %v", tc.try, tc.jitter, got, tc.want)
		}
	}
}

func TestPolicySilenceIsRetriedThenNamed(t *testing.T) {
	s := &script{outcomes: []outcome{{block: true}}}
	var sl sleeps
	var notices []RetryNotice
	ctx := WithRetryNotify(t.Context(), func(n RetryNotice) { notices = append(notices, n) })
	p := Policy{Timeout: 20 * time.Millisecond, Sleep: sl.sleep}
	_, err := collect(p.Stream(ctx, testEndpoint, s.attempt))
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindTimeout {
		t.Fatalf("err = %v, want a timeout *Error", err)
	}
	want := "no answer from gemini for 20 ms (model_timeout) after 3 attempts; check the network and GOOGLE_GEMINI_BASE_URL, or raise model_timeout"
	if err.Error() != want {
		t.Errorf("err = %q, want %q", err, want)
	}
	if s.calls != 3 || len(notices) != 2 {
		t.Errorf("%d attempts and %d notices, want 3 and 2", s.calls, len(notices))
	}
	if len(sl) != 0 {
		t.Errorf("waits %v after a silence, want none", sl)
	}
}

func TestPolicySilenceRetriesStayInsideMaxTime(t *testing.T) {
	s := &script{outcomes: []outcome{{block: true}}}
	p := Policy{Timeout: 30 * time.Millisecond, MaxTime: 50 * time.Millisecond, Attempts: 5}
	_, err := collect(p.Stream(t.Context(), testEndpoint, s.attempt))
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindTimeout {
		t.Fatalf("err = %v, want a timeout", err)
	}
	if s.calls != 2 {
		t.Errorf("%d attempts, want 2: the third would start after max_time", s.calls)
	}
}

// With model_timeout equal to max_time (the defaults) a silent server
// is still asked once more.
func TestPolicySilenceAskedAgainOnceAtMaxTime(t *testing.T) {
	s := &script{outcomes: []outcome{{block: true}}}
	p := Policy{Timeout: 30 * time.Millisecond, MaxTime: 30 * time.Millisecond, Attempts: 5}
	_, err := collect(p.Stream(t.Context(), testEndpoint, s.attempt))
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindTimeout {
		t.Fatalf("err = %v, want a timeout", err)
	}
	if s.calls != 2 {
		t.Errorf("%d attempts, want 2: one more after the silence, then max_time", s.calls)
	}
}

func TestPolicySilenceAfterTextNamesTheTimeout(t *testing.T) {
	s := &script{outcomes: []outcome{{text: []string{"abc"}, block: true}}}
	p := Policy{Timeout: 20 * time.Millisecond}
	_, err := collect(p.Stream(t.Context(), testEndpoint, s.attempt))
	if want := "gemini stream dropped after 3 bytes of text: no answer for 20 ms (model_timeout)"; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
}

func TestPolicySilenceAfterTextIsDrop(t *testing.T) {
	s := &script{outcomes: []outcome{{text: []string{"a"}, block: true}}}
	p := Policy{Timeout: 20 * time.Millisecond}
	got, err := collect(p.Stream(t.Context(), testEndpoint, s.attempt))
	if got != "a" || !errors.Is(err, ErrStreamDropped) {
		t.Fatalf("got %q, %v; want \"a\" and a dropped stream", got, err)
	}
}

func TestPolicySlowConsumerIsNotSilence(t *testing.T) {
	s := &script{outcomes: []outcome{{text: []string{"a", "b"}}}}
	p := Policy{Timeout: 50 * time.Millisecond}
	var b strings.Builder
	for c, err := range p.Stream(t.Context(), testEndpoint, s.attempt) {
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString(c.Text)
		time.Sleep(120 * time.Millisecond) // longer than Timeout
	}
	if b.String() != "ab" {
		t.Errorf("text = %q, want ab", b.String())
	}
}

func TestPolicyCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	s := &script{outcomes: []outcome{{text: []string{"a"}, block: true}}}
	var err error
	for c, e := range (Policy{}).Stream(ctx, testEndpoint, s.attempt) {
		if c.Text == "a" {
			cancel()
		}
		err = e
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestPolicyCancelDuringWait(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	s := &script{outcomes: []outcome{{err: &APIError{Status: 503}}}}
	p := Policy{Sleep: func(ctx context.Context, d time.Duration) error { cancel(); return backoff.Sleep(ctx, d) }}
	_, err := collect(p.Stream(ctx, testEndpoint, s.attempt))
	if !errors.Is(err, context.Canceled) || s.calls != 1 {
		t.Fatalf("err = %v after %d calls, want context.Canceled after 1", err, s.calls)
	}
}

func TestPolicyConsumerBreak(t *testing.T) {
	s := &script{outcomes: []outcome{{text: []string{"a", "b", "c"}}}}
	n := 0
	for range (Policy{}).Stream(t.Context(), testEndpoint, s.attempt) {
		n++
		break
	}
	if n != 1 {
		t.Errorf("got %d chunks after break", n)
	}
}

func TestRetryNotify(t *testing.T) {
	s := &script{outcomes: []outcome{{err: &APIError{Status: 429, RetryAfter: 3 * time.Second}}, {err: &APIError{Status: 503}}, {text: []string{"ok"}}}}
	var w sleeps
	var got []RetryNotice
	ctx := WithRetryNotify(t.Context(), func(n RetryNotice) { got = append(got, n) })
	if _, err := collect((Policy{Sleep: w.sleep}).Stream(ctx, testEndpoint, s.attempt)); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Attempt != 1 || got[0].Wait != 3*time.Second || got[0].Err.Kind != KindRateLimit ||
		got[1].Attempt != 2 || got[1].Err.Status != 503 {
		t.Errorf("notices = %+v", got)
	}
}

func TestErrorsNeverShowASecret(t *testing.T) {
	key := "sk-abcdefgh-0123456789"
	p := Policy{Secrets: secretval.Of(nil, nil, []string{key})}
	ep := Endpoint{Provider: "openai", Model: "m"}
	// The key where the message is cut to one line: redacted whole
	// before the cut, never half shown.
	long := strings.Repeat("a", 150) + " " + key
	for _, err := range []error{
		&APIError{Status: 400, Message: long},
		&APIError{Status: 429, Message: "key " + key},
		&APIError{Status: 500, Message: "for " + key},
		errors.New("dial tcp: lookup " + key + ": no such host"),
	} {
		got := p.judge(err, ep, 1).err.Error()
		if strings.Contains(got, key[:8]) {
			t.Errorf("judge(%v) = %q shows the key", err, got)
		}
	}
	drop := &DropError{Provider: "openai", Received: 3, Err: errors.New("reset by " + key), secrets: p.Secrets}
	if strings.Contains(drop.Error(), key) {
		t.Errorf("DropError = %q shows the key", drop.Error())
	}
}
