package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	ttsui "github.com/agentcli/agent/agent/ui/tts"
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
	return ttsui.Speak(cmd.Context(), speakers[0], text, o.voice, o.output, d.io.Out, d.io.ErrOut, d.io.stderrTTY)
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
	s := ttsui.SpeechSettings(cfg, d.environ(), provider)
	if concurrency > 0 {
		s.Concurrency = concurrency
	}
	progs := d.programs(root, cfg)
	s.LookPath = progs.Find
	// Its trusted PATH, and none of the agent's keys.
	s.Env = progs.Environ(tools.WithoutSecrets(os.Environ(), cfg.SecretVars(), cfg.SecretValues()))
	return tts.Open(cmd.Context(), s)
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
			return ttsui.Voices(cmd.Context(), d.io.Out, speakers, asJSON)
		},
	}
	cmd.Flags().StringVar(&provider, "provider", "", "gemini or espeak (default: every available one)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}
