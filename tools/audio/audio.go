package audio

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agentcli/agent/internal/termtext"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tts"
)

//go:embed audio_generation.md
var description string

// Name is the tool's name.
const Name = "audio_generation"

// MaxText is the most text one call speaks, in characters: about half an
// hour of prose, some 80 MB of WAV. A longer text belongs in several
// files. Characters, not bytes, because that is what the model can count.
const MaxText = 32_000

// MaxSize bounds the WAV one call writes. Text can say far more than its
// length suggests ("9999999999999" is a dozen words), so the speech is
// bounded too: tts.DefaultMaxSize, about 46 minutes.
const MaxSize = tts.DefaultMaxSize

// Timeout is the tool's time limit: a long text takes minutes.
const Timeout = 10 * time.Minute

// Args are the tool's parameters, as the seed's example call writes them.
type Args struct {
	Text       string `json:"text" verbatim:"true" jsonschema:"the words to speak"`
	OutputPath string `json:"output_path" path:"true" jsonschema:"the .wav file to write, relative to the project"`
	Voice      string `json:"voice,omitempty"`
	Provider   string `json:"provider,omitempty"`
}

// speaker is what the tool needs of a speech engine; *tts.Speaker is one.
type speaker interface {
	Name() string
	Voice(ctx context.Context, name string) (string, error)
	Speak(ctx context.Context, text, voice string) (*tts.Speech, error)
}

// fileWriter is the project's sandboxed writer, as the tool needs it.
// A refusal the model can fix (a path outside the project, a protected
// folder) is a non-nil *tools.Result with its protocol code; a Go error
// is a failure of the program.
type fileWriter interface {
	// Check says, without writing, whether rel may be written.
	Check(ctx context.Context, rel string) (*tools.Result, error)
	// Put writes data to rel atomically, creating parent folders inside
	// the project and backing up a file it replaces (so that undo
	// restores it). replaced reports whether a file was there.
	Put(ctx context.Context, rel string, data []byte) (replaced bool, refusal *tools.Result, err error)
}

// Tool is the audio_generation tool.
type Tool struct {
	tools.Tool
	w        fileWriter
	speakers []speaker
}

// New builds the tool over w with the given engines, the default first
// (see tts.Open). It panics without any engine: leave the tool out of the
// registry instead, since a tool that can never work only confuses the
// model.
func New[S speaker](w fileWriter, speakers ...S) *Tool {
	if len(speakers) == 0 {
		panic("audio.New: no speech engine")
	}
	t := &Tool{w: w}
	for _, s := range speakers {
		t.speakers = append(t.speakers, s)
	}
	t.Tool = tools.New(Name, description, t.run, tools.Writes(), tools.Acts(tools.ActionEdit), tools.Timeout(Timeout), tools.OnDemand())
	// The voice and provider descriptions name what is configured, so
	// the model never guesses at a provider that is not there.
	def := t.Tool.Definition()
	names := make([]string, len(t.speakers))
	for i, s := range t.speakers {
		names[i] = s.Name()
	}
	for i := range def.Params {
		switch def.Params[i].Name {
		case "voice":
			def.Params[i].Description = voiceHint(names[0])
		case "provider":
			def.Params[i].Description = strings.Join(names, " or ") + "; default " + names[0]
		}
	}
	t.Tool = definedTool{Tool: t.Tool, def: def}
	return t
}

// Definition is the tool's definition without its engines, whose names
// New writes into the voice and provider descriptions: what the user's
// permission rules know of the tool on a machine with no engine, where
// it is not offered.
func Definition() tools.Definition {
	return tools.New(Name, description, (*Tool)(nil).run, tools.Writes(), tools.Acts(tools.ActionEdit), tools.Timeout(Timeout)).Definition()
}

func voiceHint(provider string) string {
	if provider == "gemini" {
		return "default Zephyr; also Puck, Kore, Charon, Leda…"
	}
	return "default en-us; also en-gb, de, fr, es…"
}

// definedTool is a tool whose definition was adjusted after tools.New.
type definedTool struct {
	tools.Tool
	def tools.Definition
}

func (d definedTool) Definition() tools.Definition { return d.def }

// plan is a checked call, ready to speak.
type plan struct {
	rel     string
	text    string
	speaker speaker
	voice   string
}

// check runs every check a call can fail before anything is spoken: the
// same for Preview and Execute, so nobody approves a call that would fail.
func (t *Tool) check(ctx context.Context, a Args) (plan, *tools.Result, error) {
	fail := func(code, format string, args ...any) (plan, *tools.Result, error) {
		r := tools.Errorf(code, format, args...)
		return plan{}, &r, nil
	}
	if strings.TrimSpace(a.Text) == "" {
		return fail(tools.CodeSchemaInvalid, "text is empty: give the words to speak")
	}
	if n := utf8.RuneCountInString(a.Text); n > MaxText {
		return fail(tools.CodeSchemaInvalid, "text is %d characters, more than the %d one call speaks: split it into several files", n, MaxText)
	}
	if !strings.EqualFold(path.Ext(a.OutputPath), ".wav") {
		return fail(tools.CodeUnsupportedType, "audio_generation writes .wav files, not %q: use an output_path like audio/speech.wav", a.OutputPath)
	}
	sp := t.speakers[0]
	if a.Provider != "" {
		sp = t.speaker(tts.ProviderName(a.Provider))
		if sp == nil {
			return fail(tools.CodeSchemaInvalid, "provider %q is not available; use %s", a.Provider, t.providerList())
		}
	}
	if res, err := t.w.Check(ctx, a.OutputPath); res != nil || err != nil {
		return plan{}, res, err
	}
	voice, err := sp.Voice(ctx, a.Voice)
	var ve *tts.VoiceError
	switch {
	case errors.As(err, &ve):
		return fail(tools.CodeSchemaInvalid, "%s", shortVoiceError(ve))
	case err != nil:
		return fail(tools.CodeProviderError, "%s: %v", sp.Name(), err)
	}
	return plan{rel: a.OutputPath, text: a.Text, speaker: sp, voice: voice}, nil, nil
}

// shortVoiceError keeps the list of voices short enough for one line: an
// engine like espeak-ng has over a hundred.
func shortVoiceError(ve *tts.VoiceError) string {
	short := *ve
	if len(short.Known) > 30 {
		short.Known = append(append([]string(nil), ve.Known[:30]...), fmt.Sprintf("… (%d in all; agent tts voices lists them)", len(ve.Known)))
	}
	return short.Error()
}

func (t *Tool) speaker(name string) speaker {
	for _, s := range t.speakers {
		if s.Name() == name {
			return s
		}
	}
	return nil
}

func (t *Tool) providerList() string {
	names := make([]string, len(t.speakers))
	for i, s := range t.speakers {
		names[i] = s.Name()
	}
	return strings.Join(names, " or ")
}

func (t *Tool) run(ctx context.Context, a Args) (tools.Result, error) {
	p, res, err := t.check(ctx, a)
	if res != nil || err != nil {
		return deref(res), err
	}
	speech, err := p.speaker.Speak(ctx, p.text, p.voice)
	var se *tts.SizeError
	switch {
	case err != nil && ctx.Err() != nil:
		return tools.Result{}, ctx.Err()
	case errors.As(err, &se):
		return tools.Errorf(tools.CodeFileTooLarge, "%v; no file was written", err), nil
	case err == nil && speech.Size() > MaxSize:
		// A speaker with a higher bound of its own.
		return tools.Errorf(tools.CodeFileTooLarge, "%v; no file was written", &tts.SizeError{Limit: MaxSize, Format: speech.Format}), nil
	}
	if err != nil {
		return tools.Errorf(tools.CodeProviderError, "%v; no file was written", err), nil
	}
	data, err := speech.WAV()
	if err != nil {
		return tools.Errorf(tools.CodeProviderError, "%s: %v; no file was written", speech.Provider, err), nil
	}
	replaced, refusal, err := t.w.Put(ctx, p.rel, data)
	if refusal != nil || err != nil {
		return deref(refusal), err
	}
	verb := "wrote"
	if replaced {
		verb = "replaced (old file backed up)"
	}
	secs := strconv.FormatFloat(speech.Duration().Seconds(), 'f', 1, 64)
	return tools.Result{
		Message: fmt.Sprintf("%s %s: %s s of speech, %s voice %s", verb, p.rel, secs, speech.Provider, speech.Voice),
		Metadata: []tools.Attr{
			{Name: "path", Value: p.rel},
			{Name: "provider", Value: speech.Provider},
			{Name: "voice", Value: speech.Voice},
			{Name: "duration", Value: secs + "s"},
			{Name: "sample_rate", Value: strconv.Itoa(speech.Format.SampleRate)},
			{Name: "size", Value: strconv.FormatInt(speech.Size(), 10)},
			{Name: "pieces", Value: strconv.Itoa(speech.Pieces)},
		},
		Changed: []string{p.rel},
	}, nil
}

func deref(r *tools.Result) tools.Result {
	if r == nil {
		return tools.Result{}
	}
	return *r
}

// Preview says what a call would write, after the same checks as the
// call itself.
func (t *Tool) Preview(ctx context.Context, in tools.Input) (tools.Preview, *tools.Result, error) {
	var a Args
	a.Text, _ = in.Values["text"].(string)
	a.OutputPath, _ = in.Values["output_path"].(string)
	a.Voice, _ = in.Values["voice"].(string)
	a.Provider, _ = in.Values["provider"].(string)
	p, res, err := t.check(ctx, a)
	if res != nil || err != nil {
		return tools.Preview{}, res, err
	}
	words := len(strings.Fields(p.text))
	return tools.Preview{
		Summary: fmt.Sprintf("speak %d words into %s", words, p.rel),
		Lines: []string{
			"file: " + p.rel,
			fmt.Sprintf("provider %s, voice %s", p.speaker.Name(), p.voice),
			"text: " + termtext.OneLine(termtext.RunePrefix(p.text, 200)),
		},
	}, nil, nil
}
