package llmtest

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentcli/agent/agent/llm"
)

// Provider is what RunModelTests needs to drive one provider package
// through its real client against its fake server.
type Provider struct {
	// NewServer starts the provider's fake server (NewGeminiServer, ...).
	NewServer func(t testing.TB, answers ...Answer) *Server
	// NewModel builds the provider's model pointed at s.URL with policy p
	// and the API key "llmtest-key".
	NewModel func(t testing.TB, s *Server, p llm.Policy) llm.Model
	// MaxStop is how many stop sequences the provider accepts.
	MaxStop int
	// KeySetting is the setting a 401 message must name.
	KeySetting string
}

// Sleeps records the waits of an llm.Policy without spending them.
type Sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

// Sleep records d and returns at once (or ctx's error).
func (s *Sleeps) Sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.d = append(s.d, d)
	s.mu.Unlock()
	return ctx.Err()
}

// Waits returns the recorded waits.
func (s *Sleeps) Waits() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.d)
}

// Collect drains a stream: the text, the last usage and finish reason, and
// the error that ended it.
func Collect(seq iter.Seq2[llm.Chunk, error]) (text string, usage *llm.Usage, finish string, err error) {
	var b strings.Builder
	for c, e := range seq {
		if e != nil {
			return b.String(), usage, finish, e
		}
		b.WriteString(c.Text)
		if c.Usage != nil {
			usage = c.Usage
		}
		if c.Finish != "" {
			finish = c.Finish
		}
	}
	return b.String(), usage, finish, nil
}

// CollectThoughts drains a stream and returns its text and its thoughts
// apart.
func CollectThoughts(seq iter.Seq2[llm.Chunk, error]) (text, thoughts string, err error) {
	var b, th strings.Builder
	for c, e := range seq {
		if e != nil {
			return b.String(), th.String(), e
		}
		b.WriteString(c.Text)
		th.WriteString(c.Thought)
	}
	return b.String(), th.String(), nil
}

// RunModelTests checks that a provider's llm.Model streams, sends what it
// is asked to, and survives what real networks do, all through the real
// client against the fake server. Each provider package calls it from a test.
func RunModelTests(t *testing.T, p Provider) {
	ms := newModelSuite(p)
	ms.streaming(t)
	ms.statuses(t)
	ms.drops(t)
	ms.waits(t)
	ms.errorPages(t)
	ms.ends(t)
}

// modelSuite is what RunModelTests's groups of subtests share: the
// provider, the request every case sends, and its helpers.
type modelSuite struct {
	p     Provider
	req   llm.Request
	run   func(t *testing.T, pol llm.Policy, answers ...Answer) (*Server, string, *llm.Usage, string, error)
	quick func() (llm.Policy, *Sleeps)
}

func newModelSuite(p Provider) modelSuite {
	req := llm.Request{
		System: "be brief",
		Messages: []llm.Message{
			{Role: llm.User, Text: "read it"},
			{Role: llm.Assistant, Text: `<tool_call name="read_file"><file_path>a</file_path></tool_call>`},
			{Role: llm.User, Text: `<tool_response id="1">ok</tool_response>`},
		},
		Stop:      []string{"<tool_response"},
		MaxTokens: 500,
	}
	run := func(t *testing.T, pol llm.Policy, answers ...Answer) (*Server, string, *llm.Usage, string, error) {
		t.Helper()
		s := p.NewServer(t, answers...)
		m := p.NewModel(t, s, pol)
		text, usage, finish, err := Collect(m.Stream(t.Context(), req))
		return s, text, usage, finish, err
	}
	quick := func() (llm.Policy, *Sleeps) {
		sl := &Sleeps{}
		return llm.Policy{Sleep: sl.Sleep, Timeout: 5 * time.Second}, sl
	}
	return modelSuite{p: p, req: req, run: run, quick: quick}
}

// streaming runs the cases of what is sent and streamed back.
func (ms modelSuite) streaming(t *testing.T) {
	p, req, run, quick := ms.p, ms.req, ms.run, ms.quick
	t.Run("streams text, usage and finish", func(t *testing.T) {
		pol, _ := quick()
		s, text, usage, finish, err := run(t, pol, Say("Hel", "lo ", "world").WithUsage(12, 3))
		if err != nil {
			t.Fatal(err)
		}
		if text != "Hello world" || finish != "stop" {
			t.Errorf("got %q finish %q, want \"Hello world\" finish stop", text, finish)
		}
		if usage == nil || usage.InputTokens != 12 || usage.OutputTokens != 3 {
			t.Errorf("usage = %+v, want 12 in, 3 out", usage)
		}
		if n := len(s.Requests()); n != 1 {
			t.Errorf("%d requests, want 1", n)
		}
	})

	t.Run("chunks arrive one by one", func(t *testing.T) {
		pol, _ := quick()
		s := p.NewServer(t, Say("a", "b", "c"))
		var got []string
		for c, err := range p.NewModel(t, s, pol).Stream(t.Context(), req) {
			if err != nil {
				t.Fatal(err)
			}
			if c.Text != "" {
				got = append(got, c.Text)
			}
		}
		if !slices.Equal(got, []string{"a", "b", "c"}) {
			t.Errorf("chunks = %q, want [a b c]", got)
		}
	})

	t.Run("sends system, messages, stop and max tokens", func(t *testing.T) {
		pol, _ := quick()
		s, _, _, _, err := run(t, pol, Say("ok"))
		if err != nil {
			t.Fatal(err)
		}
		r := s.Requests()[0]
		if !r.Stream || r.System != req.System || r.MaxTokens != 500 {
			t.Errorf("stream=%v system=%q max=%d, want true %q 500", r.Stream, r.System, r.MaxTokens, req.System)
		}
		if !SameMessages(r.Messages, req.Messages) {
			t.Errorf("messages = %+v, want %+v", r.Messages, req.Messages)
		}
		if !slices.Equal(r.Stop, req.Stop) {
			t.Errorf("stop = %q, want %q", r.Stop, req.Stop)
		}
		if !strings.Contains(r.LastUser(), "<tool_response") {
			t.Errorf("LastUser() = %q, want the tool response", r.LastUser())
		}
	})

	t.Run("sends images after the text", func(t *testing.T) {
		pol, _ := quick()
		s := p.NewServer(t, Say("ok"))
		shot := PNGImage(t, 40, 30)
		withImage := slices.Clone(req.Messages)
		withImage[2].Images = []llm.Image{shot, shot}
		if _, _, _, err := Collect(p.NewModel(t, s, pol).Stream(t.Context(), llm.Request{System: req.System, Messages: withImage})); err != nil {
			t.Fatal(err)
		}
		got := s.Requests()[0]
		if !SameMessages(got.Messages, withImage) {
			t.Errorf("messages = %+v, want the images after the text", got.Messages)
		}
		if imgs := got.Images(); len(imgs) != 2 || imgs[0].MIME != "image/png" || imgs[0].Width != 40 || imgs[0].Height != 30 {
			t.Errorf("images sent: %+v, want two 40×30 PNGs", imgs)
		}
	})

	t.Run("stop sequences beyond the limit are dropped", func(t *testing.T) {
		pol, _ := quick()
		s := p.NewServer(t, Say("ok"))
		many := llm.Request{Messages: req.Messages[:1], Stop: []string{"a", "b", "c", "d", "e", "f", "g"}}
		if _, _, _, err := Collect(p.NewModel(t, s, pol).Stream(t.Context(), many)); err != nil {
			t.Fatal(err)
		}
		if got := s.Requests()[0].Stop; !slices.Equal(got, many.Stop[:p.MaxStop]) {
			t.Errorf("stop = %q, want the first %d", got, p.MaxStop)
		}
	})
}

// statuses runs the cases of the HTTP statuses retried and those that end at once.
func (ms modelSuite) statuses(t *testing.T) {
	p, run, quick := ms.p, ms.run, ms.quick
	t.Run("429 with Retry-After then success", func(t *testing.T) {
		pol, sl := quick()
		s, text, _, _, err := run(t, pol, Fail(429, "Retry-After", "2"), Say("ok"))
		if err != nil || text != "ok" {
			t.Fatalf("got %q, %v; want ok", text, err)
		}
		if w := sl.Waits(); len(w) != 1 || w[0] != 2*time.Second {
			t.Errorf("waits = %v, want [2s] as Retry-After asked", w)
		}
		if n := len(s.Requests()); n != 2 {
			t.Errorf("%d requests, want 2", n)
		}
	})

	t.Run("500 three times then a clear error", func(t *testing.T) {
		pol, sl := quick()
		s, _, _, _, err := run(t, pol, Fail(500), Fail(500), Fail(500))
		var e *llm.Error
		if !errors.As(err, &e) || e.Kind != llm.KindServer || e.Status != 500 || e.Attempts != 3 {
			t.Fatalf("err = %v, want a server error after 3 attempts", err)
		}
		oneLine(t, err)
		if n := len(s.Requests()); n != 3 {
			t.Errorf("%d requests, want 3", n)
		}
		if w := sl.Waits(); len(w) != 2 || w[1] <= w[0]/2 {
			t.Errorf("waits = %v, want two growing backoffs", w)
		}
	})

	t.Run("401 ends at once naming the key setting", func(t *testing.T) {
		pol, _ := quick()
		s, _, _, _, err := run(t, pol, Fail(401))
		if err == nil || !strings.Contains(err.Error(), "(401): check "+p.KeySetting) {
			t.Fatalf("err = %v, want it to name %s", err, p.KeySetting)
		}
		oneLine(t, err)
		if strings.Contains(err.Error(), "llmtest-key") {
			t.Errorf("the error shows the key: %v", err)
		}
		if n := len(s.Requests()); n != 1 {
			t.Errorf("%d requests, want 1 (no retry on 401)", n)
		}
	})

	for _, code := range []int{400, 403} {
		t.Run(fmt.Sprintf("no retry on %d", code), func(t *testing.T) {
			pol, _ := quick()
			s, _, _, _, err := run(t, pol, Fail(code), Say("never"))
			if err == nil {
				t.Fatal("no error")
			}
			oneLine(t, err)
			if n := len(s.Requests()); n != 1 {
				t.Errorf("%d requests, want 1", n)
			}
		})
	}
}

// drops runs the cases of a connection or stream that breaks, before and after text.
func (ms modelSuite) drops(t *testing.T) {
	run, quick := ms.run, ms.quick
	t.Run("connection reset before text is retried", func(t *testing.T) {
		pol, _ := quick()
		_, text, _, _, err := run(t, pol, Say().WithFault(FaultReset), Say("ok"))
		if err != nil || text != "ok" {
			t.Fatalf("got %q, %v; want ok", text, err)
		}
	})

	t.Run("connection reset mid-stream is a recognisable drop", func(t *testing.T) {
		pol, _ := quick()
		s, text, _, _, err := run(t, pol, Say("partial ").WithFault(FaultReset), Say("never"))
		if text != "partial " || !errors.Is(err, llm.ErrStreamDropped) {
			t.Fatalf("got %q, %v; want the partial text and ErrStreamDropped", text, err)
		}
		if n := len(s.Requests()); n != 1 {
			t.Errorf("%d requests, want 1 (no replay after text)", n)
		}
	})

	t.Run("stream cut without an end is a drop", func(t *testing.T) {
		pol, _ := quick()
		_, text, _, _, err := run(t, pol, Say("partial").WithFault(FaultCut))
		if text != "partial" || !errors.Is(err, llm.ErrStreamDropped) {
			t.Fatalf("got %q, %v; want the partial text and ErrStreamDropped", text, err)
		}
	})

	t.Run("malformed SSE before text is retried, then reported", func(t *testing.T) {
		pol, _ := quick()
		_, text, _, _, err := run(t, pol, Say().WithFault(FaultMalformed), Say("ok"))
		if err != nil || text != "ok" {
			t.Fatalf("got %q, %v; want ok after one retry", text, err)
		}
		bad := Say().WithFault(FaultMalformed)
		_, _, _, _, err = run(t, pol, bad, bad, bad)
		var e *llm.Error
		if !errors.As(err, &e) || e.Kind != llm.KindMalformed {
			t.Fatalf("err = %v, want a malformed-stream error", err)
		}
		oneLine(t, err)
	})

	t.Run("malformed SSE after text is a drop", func(t *testing.T) {
		pol, _ := quick()
		_, text, _, _, err := run(t, pol, Say("par").WithFault(FaultMalformed))
		if text != "par" || !errors.Is(err, llm.ErrStreamDropped) {
			t.Fatalf("got %q, %v; want the partial text and ErrStreamDropped", text, err)
		}
	})

	t.Run("error event mid-stream", func(t *testing.T) {
		pol, _ := quick()
		ev := Say().WithFault(FaultErrorEvent)
		ev.Status, ev.Message = 503, "overloaded"
		_, text, _, _, err := run(t, pol, ev, Say("ok"))
		if err != nil || text != "ok" {
			t.Fatalf("got %q, %v; want ok after a retry", text, err)
		}
	})
}

// waits runs the cases of a server that is silent, or never answers.
func (ms modelSuite) waits(t *testing.T) {
	p, req, run, quick := ms.p, ms.req, ms.run, ms.quick
	t.Run("silence before the first byte is asked again at once", func(t *testing.T) {
		pol, sl := quick()
		pol.Timeout = 150 * time.Millisecond
		// A server that sends nothing, then one that sends its headers
		// and hangs, then one that answers.
		s := p.NewServer(t, Say("late").WithDelay(time.Minute), Say().WithFault(FaultStall), Say("ok"))
		var notices []llm.RetryNotice
		ctx := llm.WithRetryNotify(t.Context(), func(n llm.RetryNotice) { notices = append(notices, n) })
		text, _, _, err := Collect(p.NewModel(t, s, pol).Stream(ctx, req))
		if err != nil || text != "ok" {
			t.Fatalf("got %q, %v; want ok after two silences", text, err)
		}
		if n := len(s.Requests()); n != 3 {
			t.Errorf("%d requests, want 3", n)
		}
		if len(notices) != 2 || notices[0].Err.Kind != llm.KindTimeout || notices[1].Err.Kind != llm.KindTimeout ||
			notices[0].Wait != 0 || notices[0].Err.Waited != pol.Timeout {
			t.Errorf("notices = %+v, want two timeouts of 150ms retried without a wait", notices)
		}
		if w := sl.Waits(); len(w) != 0 {
			t.Errorf("waits = %v, want none: the silence was the wait", w)
		}
	})

	t.Run("a server that never answers is given up naming model_timeout", func(t *testing.T) {
		pol, _ := quick()
		pol.Timeout, pol.Attempts = 150*time.Millisecond, 2
		_, _, _, _, err := run(t, pol, Say("late").WithDelay(time.Minute), Say().WithFault(FaultStall))
		var e *llm.Error
		if !errors.As(err, &e) || e.Kind != llm.KindTimeout || e.Attempts != 2 {
			t.Fatalf("err = %v, want a timeout after 2 attempts", err)
		}
		if !strings.Contains(err.Error(), "no answer from ") || !strings.Contains(err.Error(), "for 150 ms (model_timeout) after 2 attempts") {
			t.Errorf("err = %q, want it to say how long and name model_timeout", err)
		}
		oneLine(t, err)
	})
}

// errorPages runs the cases of error pages and bodies made readable.
func (ms modelSuite) errorPages(t *testing.T) {
	run, quick := ms.run, ms.quick
	t.Run("an HTML error page is summarised to its status and title", func(t *testing.T) {
		pol, _ := quick()
		pol.Attempts = 2
		page := HTMLPage(502, "502 Bad Gateway")
		s, _, _, _, err := run(t, pol, page, page)
		var e *llm.Error
		if !errors.As(err, &e) || !e.HTML || e.Status != 502 {
			t.Fatalf("err = %v, want an HTML 502", err)
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, "HTTP 502 from ") || !strings.Contains(msg, "after 2 attempts: Bad Gateway (an HTML page, not an API answer; check ") {
			t.Errorf("err = %q, want the status, the title and what to check", msg)
		}
		if strings.ContainsAny(msg, "<>") {
			t.Errorf("the page was pasted: %q", msg)
		}
		if n := len(s.Requests()); n != 2 {
			t.Errorf("%d requests, want 2 (a 502 is retried)", n)
		}
		oneLine(t, err)
	})

	t.Run("an HTML page with status 200 is not taken for the stream", func(t *testing.T) {
		pol, _ := quick()
		portal := HTMLPage(200, "Sign in to the guest Wi-Fi")
		s, _, _, _, err := run(t, pol, portal)
		if err == nil || !strings.Contains(err.Error(), "HTTP 200 from ") || !strings.Contains(err.Error(), ": Sign in to the guest Wi-Fi (an HTML page") {
			t.Fatalf("err = %v, want the portal's title", err)
		}
		if n := len(s.Requests()); n != 1 {
			t.Errorf("%d requests, want 1", n)
		}
	})

	t.Run("escape bytes in an error body are made visible", func(t *testing.T) {
		pol, _ := quick()
		pol.Attempts = 1
		body := Raw(500, "\x1b[2J\x1b[31mupstream\x07 failed\x1b[0m")
		body.Header = http.Header{"Content-Type": {"text/plain"}}
		_, _, _, _, err := run(t, pol, body)
		if err == nil {
			t.Fatal("no error")
		}
		msg := err.Error()
		if strings.ContainsAny(msg, "\x1b\x07") || !strings.Contains(msg, `\x1b[31mupstream\x07 failed`) {
			t.Errorf("err = %q, want the escape bytes shown as \\x1b and \\x07", msg)
		}
	})
}

// ends runs the cases of a stream that stalls, and one cancelled.
func (ms modelSuite) ends(t *testing.T) {
	p, req, run, quick := ms.p, ms.req, ms.run, ms.quick
	t.Run("a stream that stalls after text is a drop", func(t *testing.T) {
		pol, _ := quick()
		pol.Timeout = 150 * time.Millisecond
		_, text, _, _, err := run(t, pol, Say("one").WithChunkDelay(time.Minute))
		if text != "one" || !errors.Is(err, llm.ErrStreamDropped) {
			t.Fatalf("got %q, %v; want the text and ErrStreamDropped", text, err)
		}
	})

	t.Run("cancellation stops the stream at once", func(t *testing.T) {
		pol, _ := quick()
		s := p.NewServer(t, Say("first", "second").WithChunkDelay(time.Minute))
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		done := make(chan error, 1)
		var text string
		go func() {
			var err error
			text, _, _, err = Collect(cancelAfterFirst(p.NewModel(t, s, pol).Stream(ctx, req), cancel))
			done <- err
		}()
		select {
		case err := <-done:
			if text != "first" || !errors.Is(err, context.Canceled) {
				t.Errorf("got %q, %v; want \"first\" and context.Canceled", text, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the stream did not stop when its context was cancelled")
		}
	})

	t.Run("cancellation closes the connection", func(t *testing.T) {
		pol, _ := quick()
		// Esc in the chat: the server must see the client go, or a
		// provider would go on generating (and billing) the reply.
		s := p.NewServer(t, Say("first", "second").WithChunkDelay(time.Minute))
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		go Collect(cancelAfterFirst(p.NewModel(t, s, pol).Stream(ctx, req), cancel))
		select {
		case <-s.Gone():
		case <-time.After(10 * time.Second):
			t.Fatal("the server still holds the connection of a cancelled stream")
		}
	})
}

// cancelAfterFirst passes seq through and calls cancel once text arrived.
func cancelAfterFirst(seq iter.Seq2[llm.Chunk, error], cancel func()) iter.Seq2[llm.Chunk, error] {
	return func(yield func(llm.Chunk, error) bool) {
		for c, err := range seq {
			if !yield(c, err) {
				return
			}
			if c.Text != "" {
				cancel()
			}
		}
	}
}

func oneLine(t *testing.T, err error) {
	t.Helper()
	if s := err.Error(); strings.ContainsAny(s, "\r\n") {
		t.Errorf("error has more than one line: %q", s)
	}
}
