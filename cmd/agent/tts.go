package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/internal/atomicfile"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tts"
	"github.com/spf13/cobra"
)

// maxSpeechText bounds what agent tts reads: about ten hours of speech.
const maxSpeechText = 1 << 20

type ttsOptions struct {
	output, voice, provider, file string
	force                         bool
	concurrency                   int
}

func newTTSCmd(d *factory) *cobra.Command {
	var o ttsOptions
	cmd := &cobra.Command{
		Use:   "tts [text] -o out.wav",
		Short: "Speak a text into a WAV file",
		Long: `tts speaks a text into a WAV file, with Gemini's voices when GEMINI_API_KEY
(or GOOGLE_API_KEY) is set, else offline with espeak-ng. The text comes from
the arguments, --file, or standard input. Long texts are split at paragraphs
and sentences, spoken a few pieces at a time, and joined with a short pause
between paragraphs. "-o -" writes the WAV to standard output.

Dialogue for two Gemini voices: write "Ana: ..." and "Ben: ..." lines and
pass --voice "Ana:Kore,Ben:Puck". Settings live in the [tts] section of the
config (provider, model, voice, base_url, concurrency).`,
		Example: `  agent tts "Hello there" -o hello.wav
  agent tts --file lesson.md -o lesson.wav --voice Kore
  agent tts --provider espeak --voice en-gb -o out.wav < notes.txt
  agent tts voices --provider gemini`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runTTS(cmd, d, o, args)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&o.output, "output", "o", "", "the .wav file to write (- for standard output)")
	f.StringVar(&o.voice, "voice", "", `the voice ("Zephyr", "en-us"; "Ana:Kore,Ben:Puck" for dialogue)`)
	f.StringVar(&o.provider, "provider", "", "gemini or espeak (default: gemini when a key is set)")
	f.StringVar(&o.file, "file", "", "read the text from this file")
	f.BoolVar(&o.force, "force", false, "replace the output file if it exists")
	f.IntVar(&o.concurrency, "concurrency", 0, "pieces spoken at once (default 3, or tts.concurrency)")
	cmd.AddCommand(newTTSVoicesCmd(d))
	return cmd
}

func runTTS(cmd *cobra.Command, d *factory, o ttsOptions, args []string) error {
	if o.output == "" {
		return usageErrorf("say where to write the audio: -o out.wav")
	}
	if o.output != "-" && !strings.EqualFold(filepath.Ext(o.output), ".wav") {
		return usageErrorf("-o %s: agent tts writes .wav files", o.output)
	}
	if o.output != "-" && !o.force {
		if _, err := os.Stat(o.output); err == nil {
			return usageErrorf("%s exists: pass --force to replace it", o.output)
		}
	}
	text, err := speechText(d.io, o.file, args)
	if err != nil {
		return err
	}
	speakers, err := openSpeakers(cmd, d, o.provider, o.concurrency)
	if err != nil {
		return err
	}
	sp := speakers[0]
	bar := newProgressBar(d.io)
	sp.Progress = bar.update
	speech, err := sp.Speak(cmd.Context(), text, o.voice)
	bar.done()
	var ve *tts.VoiceError
	switch {
	case errors.As(err, &ve):
		return usageErrorf("%v", err)
	case errors.Is(err, tts.ErrEmptyText):
		return usageErrorf("the text is empty")
	case err != nil:
		return err
	}
	pieces := "pieces"
	if speech.Pieces == 1 {
		pieces = "piece"
	}
	summary := fmt.Sprintf("%.1f s of speech, %d %s, %s voice %s, %s", speech.Duration().Seconds(), speech.Pieces, pieces, speech.Provider, speech.Voice, speech.Format)
	if o.output == "-" {
		if _, err := speech.WriteTo(d.io.Out); err != nil {
			return err
		}
		fmt.Fprintln(d.io.ErrOut, summary)
		return nil
	}
	if err := atomicfile.WriteFile(o.output, 0o644, func(w io.Writer) error { _, err := speech.WriteTo(w); return err }); err != nil {
		return fmt.Errorf("write %s: %w", o.output, err)
	}
	fmt.Fprintf(d.io.Out, "wrote %s: %s\n", o.output, summary)
	return nil
}

// speechText reads the text from the arguments, --file, or standard input,
// in that order, refusing more than maxSpeechText.
func speechText(io_ *streams, file string, args []string) (string, error) {
	var r io.Reader
	switch {
	case len(args) > 0 && file != "":
		return "", usageErrorf("give the text as arguments or with --file, not both")
	case len(args) > 0:
		r = strings.NewReader(strings.Join(args, " "))
	case file != "":
		f, err := os.Open(file)
		if err != nil {
			return "", usageErrorf("--file: %v", err)
		}
		defer f.Close()
		r = f
	case io_.stdinTTY:
		return "", usageErrorf("give the text to speak: as an argument, with --file, or on standard input")
	default:
		r = io_.In
	}
	b, err := io.ReadAll(io.LimitReader(r, maxSpeechText+1))
	if err != nil {
		return "", fmt.Errorf("read the text: %w", err)
	}
	if len(b) > maxSpeechText {
		return "", usageErrorf("the text is over %d bytes: split it into several files", maxSpeechText)
	}
	if strings.TrimSpace(string(b)) == "" {
		return "", usageErrorf("the text is empty")
	}
	return string(b), nil
}

// openSpeakers builds the configured engines for the current project, the
// one --provider names first.
func openSpeakers(cmd *cobra.Command, d *factory, provider string, concurrency int) ([]*tts.Speaker, error) {
	root, err := projectFolder("")
	if err != nil {
		return nil, err
	}
	cfg, err := d.localConfig(root)
	if err != nil {
		return nil, err
	}
	if err := cfg.TTS.Validate(); err != nil {
		return nil, err
	}
	if provider != "" && tts.ProviderName(provider) == "" {
		return nil, usageErrorf("--provider %s: use gemini or espeak", provider)
	}
	s := speechSettings(cfg, d.environ(), provider)
	if concurrency > 0 {
		s.Concurrency = concurrency
	}
	progs := d.programs(root, cfg)
	s.LookPath = progs.Find
	// Its trusted PATH, and none of the agent's keys.
	s.Env = progs.Environ(tools.WithoutSecrets(os.Environ(), cfg.SecretVars(), cfg.SecretValues()))
	return tts.Open(cmd.Context(), s)
}

// speechSettings turns the configuration into the engines' settings:
// provider (when given) overrides tts.provider, and the configured voice
// applies only to the configured provider. Gemini's key and address are
// its own (GEMINI_API_KEY, tts.base_url or GOOGLE_GEMINI_BASE_URL), never
// the chat provider's.
func speechSettings(cfg config.Config, env map[string]string, provider string) tts.Settings {
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

func newTTSVoicesCmd(d *factory) *cobra.Command {
	var provider string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "voices",
		Short: "List the voices of the speech providers",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			speakers, err := openSpeakers(cmd, d, provider, 0)
			if err != nil {
				return err
			}
			if provider != "" {
				speakers = speakers[:1]
			}
			type list struct {
				Provider string      `json:"provider"`
				Default  string      `json:"default"`
				Voices   []tts.Voice `json:"voices"`
			}
			var lists []list
			for _, sp := range speakers {
				voices, err := sp.Engine.Voices(cmd.Context())
				if err != nil {
					return err
				}
				def, err := sp.Voice(cmd.Context(), "")
				if err != nil {
					return err
				}
				lists = append(lists, list{sp.Name(), def, voices})
			}
			if asJSON {
				enc := json.NewEncoder(d.io.Out)
				enc.SetIndent("", "  ")
				return enc.Encode(lists)
			}
			tw := tabwriter.NewWriter(d.io.Out, 0, 4, 2, ' ', 0)
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
		},
	}
	cmd.Flags().StringVar(&provider, "provider", "", "gemini or espeak (default: every available one)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

// progressBar draws "[#####-----] 3/10" on a terminal's stderr while the
// pieces of a long text are spoken; it stays silent for one piece and
// when stderr is not a terminal (a log gets the summary line instead).
type progressBar struct {
	w     io.Writer
	on    bool
	drawn bool
}

func newProgressBar(s *streams) *progressBar { return &progressBar{w: s.ErrOut, on: s.stderrTTY} }

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
