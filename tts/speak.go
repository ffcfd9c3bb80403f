package tts

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// Defaults of a Speaker's zero fields.
const (
	DefaultConcurrency    = 3
	MaxConcurrency        = 16 // more is taken as this
	DefaultParagraphPause = 500 * time.Millisecond
	DefaultPiecePause     = 120 * time.Millisecond
	DefaultFade           = 8 * time.Millisecond
	// DefaultMaxSize bounds the samples of one Speech: about 46 minutes
	// at 24 kHz (Gemini), 50 at 22 kHz (espeak-ng), all held in memory.
	// A text that expands when spoken (long numbers read out word by
	// word) must not fill the disk and the memory with one file.
	DefaultMaxSize = 128 << 20
)

// SizeError is a speech longer than its Speaker's MaxSize: nothing of it
// is returned.
type SizeError struct {
	Limit  int64  // bytes of samples
	Format Format // the audio's shape, to say how long that lasts
}

func (e *SizeError) Error() string {
	long := fmt.Sprintf("%d seconds", int(e.Format.Duration(e.Limit).Seconds()))
	if d := e.Format.Duration(e.Limit); d >= 2*time.Minute {
		long = fmt.Sprintf("%d minutes", int(d.Minutes()))
	}
	size := fmt.Sprintf("%d KB", e.Limit/1000)
	if e.Limit >= 1<<20 {
		size = fmt.Sprintf("%d MiB", e.Limit>>20)
	}
	return fmt.Sprintf("the speech would last over %s (%s of WAV), the most one file holds: split the text into several files", long, size)
}

// Speaker speaks texts of any length with one engine.
type Speaker struct {
	Engine Engine
	// Concurrency bounds the pieces synthesised at once.
	Concurrency int
	// ParagraphPause is the silence between two paragraphs, PiecePause
	// the one between two pieces of one paragraph (cut at a sentence).
	// Negative means none.
	ParagraphPause, PiecePause time.Duration
	// Fade is the length of the ramp at each side of a join.
	Fade time.Duration
	// MaxSize bounds the bytes of samples of one Speech (a *SizeError
	// past it, found as soon as the pieces spoken add up to more, so
	// the rest is not spoken); DefaultMaxSize when zero, none when
	// negative.
	MaxSize int64
	// Progress, when set, is told each time a piece is done. Calls are
	// serialised.
	Progress func(done, total int)
}

// Speech is a spoken text: the pieces in order, faded at their joins, with
// the pauses between them. It is written out with WriteTo or WAV.
type Speech struct {
	Provider string // the engine's name
	Voice    string // the voice as the engine spells it
	Format   Format
	Pieces   int // engine requests made
	segments [][]byte
	size     int64 // bytes of samples
}

// Duration is how long the speech lasts.
func (s *Speech) Duration() time.Duration { return s.Format.Duration(s.size) }

// Size is the size of the WAV file, header included.
func (s *Speech) Size() int64 { return HeaderSize + s.size }

// WriteTo writes the speech as a WAV file.
func (s *Speech) WriteTo(w io.Writer) (int64, error) {
	h, err := Header(s.Format, s.size)
	if err != nil {
		return 0, err
	}
	n, err := w.Write(h)
	total := int64(n)
	for _, seg := range s.segments {
		if err != nil {
			break
		}
		n, err = w.Write(seg)
		total += int64(n)
	}
	return total, err
}

// WAV returns the whole WAV file.
func (s *Speech) WAV() ([]byte, error) {
	h, err := Header(s.Format, s.size)
	if err != nil {
		return nil, err
	}
	b := make([]byte, 0, s.Size())
	b = append(b, h...)
	for _, seg := range s.segments {
		b = append(b, seg...)
	}
	return b, nil
}

// Name is the engine's name.
func (s *Speaker) Name() string { return s.Engine.Name() }

// Voice resolves a voice name with the engine (see Engine.Voice).
func (s *Speaker) Voice(ctx context.Context, name string) (string, error) {
	return s.Engine.Voice(ctx, name)
}

// Speak resolves voice, reads text as plain words (Plain), splits it
// within the engine's limit, synthesises
// the pieces (at most Concurrency at a time) and joins them in order. The
// first failure cancels the pieces still running; nothing is returned but
// the error, a *ProviderError for the engine's failures.
func (s *Speaker) Speak(ctx context.Context, text, voice string) (*Speech, error) {
	e := s.Engine
	v, err := e.Voice(ctx, voice)
	if err != nil {
		return nil, err
	}
	// Markdown is heard as its words, not its syntax ("star star").
	pieces := Split(speakable(Plain(text)), e.MaxInput())
	if len(pieces) == 0 {
		return nil, ErrEmptyText
	}
	audio, err := s.synthesize(ctx, pieces, v)
	if err != nil {
		return nil, err
	}
	sp := &Speech{Provider: e.Name(), Voice: v, Format: audio[0].Format, Pieces: len(pieces)}
	if err := sp.Format.Validate(); err != nil {
		return nil, &ProviderError{Engine: e.Name(), Piece: 1, Pieces: len(pieces), Err: err}
	}
	fade := sp.Format.frames(orDefault(s.Fade, DefaultFade))
	for i, a := range audio {
		if a.Format != sp.Format {
			return nil, &ProviderError{Engine: e.Name(), Piece: i + 1, Pieces: len(pieces),
				Err: fmt.Errorf("piece came back as %s, the first as %s", a.Format, sp.Format)}
		}
		if i > 0 {
			sp.Format.fade(a.PCM, fade, true)
			pause := orDefault(s.PiecePause, DefaultPiecePause)
			if pieces[i-1].ParagraphEnd {
				pause = orDefault(s.ParagraphPause, DefaultParagraphPause)
			}
			sp.add(sp.Format.silence(pause))
		}
		if i < len(audio)-1 {
			sp.Format.fade(a.PCM, fade, false)
		}
		sp.add(a.PCM)
	}
	if limit := s.maxSize(); limit > 0 && sp.size > limit {
		return nil, &SizeError{Limit: limit, Format: sp.Format}
	}
	return sp, nil
}

func (s *Speaker) maxSize() int64 {
	if s.MaxSize == 0 {
		return DefaultMaxSize
	}
	return s.MaxSize
}

// speakable is text with its control characters (but line breaks and
// tabs) turned into spaces. They are never words, and a NUL ends
// espeak-ng's input there: "\x00hello" came back as an empty file.
func speakable(text string) string {
	clean := func(r rune) bool { return r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r < 0xa0 }
	if !strings.ContainsFunc(text, clean) {
		return text
	}
	return strings.Map(func(r rune) rune {
		if clean(r) {
			return ' '
		}
		return r
	}, text)
}

func (s *Speech) add(b []byte) {
	if len(b) > 0 {
		s.segments = append(s.segments, b)
		s.size += int64(len(b))
	}
}

// synthesize runs the engine on every piece, at most Concurrency at once,
// and returns the audio in piece order.
func (s *Speaker) synthesize(ctx context.Context, pieces []Piece, voice string) ([]Audio, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	n := s.Concurrency
	if n <= 0 {
		n = DefaultConcurrency
	}
	// A project's config may say anything: a thousand engine processes
	// or requests at once is never faster, only a flood.
	n = min(n, MaxConcurrency)
	out := make([]Audio, len(pieces))
	var (
		mu       sync.Mutex
		firstErr error
		done     int
		size     int64
		wg       sync.WaitGroup
	)
	limit := s.maxSize()
	next := make(chan int)
	for range min(n, len(pieces)) {
		wg.Go(func() {
			for i := range next {
				a, err := s.Engine.Synthesize(ctx, pieces[i].Text, voice)
				mu.Lock()
				if err != nil {
					if firstErr == nil {
						firstErr = s.wrap(ctx, err, i, len(pieces))
						cancel()
					}
				} else if size += int64(len(a.PCM)); limit > 0 && size > limit && firstErr == nil {
					firstErr = &SizeError{Limit: limit, Format: a.Format}
					cancel()
				} else if firstErr == nil {
					out[i] = a
					done++
					if s.Progress != nil {
						s.Progress(done, len(pieces))
					}
				}
				mu.Unlock()
			}
		})
	}
feed:
	for i := range pieces {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if firstErr == nil && ctx.Err() != nil {
		firstErr = ctx.Err()
	}
	if firstErr != nil {
		return nil, firstErr
	}
	return out, nil
}

// wrap names the failed piece. The caller's own cancellation and a
// refused voice stay as they are: neither is the provider failing.
func (s *Speaker) wrap(ctx context.Context, err error, i, n int) error {
	var ve *VoiceError
	if ctx.Err() != nil || errors.As(err, &ve) {
		return err
	}
	var pe *ProviderError
	if errors.As(err, &pe) {
		pe.Piece, pe.Pieces = i+1, n
		return pe
	}
	return &ProviderError{Engine: s.Engine.Name(), Piece: i + 1, Pieces: n, Err: err}
}

func orDefault(d, def time.Duration) time.Duration {
	switch {
	case d < 0:
		return 0
	case d == 0:
		return def
	}
	return d
}
