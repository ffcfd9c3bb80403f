// Package tts is agent tts's face: it speaks a text with a speaker
// into a WAV file or standard output with a progress bar on the
// terminal, lists the voices, and turns the configuration into the
// engines' settings.
package tts

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/conversation"
	"github.com/agentcli/agent/internal/atomicfile"
	"github.com/agentcli/agent/tts"
)

// Speak speaks text with sp in voice and writes the WAV to output ("-"
// for out), saying what it wrote on out (on errOut for "-"); a progress
// bar is drawn on errOut when stderrTTY. An unknown voice or an empty
// text is bad usage (conversation.ErrUsage).
func Speak(ctx context.Context, sp *tts.Speaker, text, voice, output string, out, errOut io.Writer, stderrTTY bool) error {
	bar := &progressBar{w: errOut, on: stderrTTY}
	sp.Progress = bar.update
	speech, err := sp.Speak(ctx, text, voice)
	bar.done()
	var ve *tts.VoiceError
	switch {
	case errors.As(err, &ve):
		return conversation.UsageErrorf("%v", err)
	case errors.Is(err, tts.ErrEmptyText):
		return conversation.UsageErrorf("the text is empty")
	case err != nil:
		return err
	}
	pieces := "pieces"
	if speech.Pieces == 1 {
		pieces = "piece"
	}
	summary := fmt.Sprintf("%.1f s of speech, %d %s, %s voice %s, %s", speech.Duration().Seconds(), speech.Pieces, pieces, speech.Provider, speech.Voice, speech.Format)
	if output == "-" {
		if _, err := speech.WriteTo(out); err != nil {
			return err
		}
		fmt.Fprintln(errOut, summary)
		return nil
	}
	if err := atomicfile.WriteFile(output, 0o644, func(w io.Writer) error { _, err := speech.WriteTo(w); return err }); err != nil {
		return fmt.Errorf("write %s: %w", output, err)
	}
	fmt.Fprintf(out, "wrote %s: %s\n", output, summary)
	return nil
}

// SpeechSettings turns the configuration into the engines' settings:
// provider (when given) overrides tts.provider, and the configured voice
// applies only to the configured provider. Gemini's key and address are
// its own (GEMINI_API_KEY, tts.base_url or GOOGLE_GEMINI_BASE_URL), never
// the chat provider's.
func SpeechSettings(cfg config.Config, env map[string]string, provider string) tts.Settings {
	key, _ := cfg.TTS.GeminiKey(env)
	s := tts.Settings{
		Provider:      cfg.TTS.Provider,
		Voice:         cfg.TTS.Voice,
		Concurrency:   cfg.TTS.Concurrency,
		GeminiKey:     key,
		GeminiBaseURL: cfg.TTS.BaseURL,
		GeminiModel:   cfg.TTS.Model,
	}
	if provider != "" && tts.ProviderName(provider) != tts.ProviderName(s.Provider) {
		s.Provider, s.Voice = provider, ""
	}
	return s
}

// Voices lists the voices of each speaker, its default marked, as a
// table or as JSON.
func Voices(ctx context.Context, w io.Writer, speakers []*tts.Speaker, asJSON bool) error {
	type list struct {
		Provider string      `json:"provider"`
		Default  string      `json:"default"`
		Voices   []tts.Voice `json:"voices"`
	}
	var lists []list
	for _, sp := range speakers {
		voices, err := sp.Engine.Voices(ctx)
		if err != nil {
			return err
		}
		def, err := sp.Voice(ctx, "")
		if err != nil {
			return err
		}
		lists = append(lists, list{sp.Name(), def, voices})
	}
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(lists)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PROVIDER\tVOICE\tLANGUAGE\tGENDER\tDESCRIPTION")
	for _, l := range lists {
		for _, v := range l.Voices {
			name := v.Name
			if strings.EqualFold(name, l.Default) {
				name += " (default)"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", l.Provider, name, v.Language, v.Gender, v.Description)
		}
	}
	return tw.Flush()
}

// progressBar draws "[#####-----] 3/10" on a terminal's stderr while the
// pieces of a long text are spoken; it stays silent for one piece and
// when stderr is not a terminal (a log gets the summary line instead).
type progressBar struct {
	w     io.Writer
	on    bool
	drawn bool
}

func (p *progressBar) update(done, total int) {
	if !p.on || total < 2 {
		return
	}
	const width = 30
	n := done * width / total
	fmt.Fprintf(p.w, "\r[%s%s] %d/%d pieces", strings.Repeat("#", n), strings.Repeat("-", width-n), done, total)
	p.drawn = true
}

func (p *progressBar) done() {
	if p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
