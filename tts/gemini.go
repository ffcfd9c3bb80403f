package tts

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"google.golang.org/genai"
)

// Gemini defaults.
const (
	DefaultGeminiModel = "gemini-2.5-flash-preview-tts"
	DefaultGeminiVoice = "Zephyr"
	// DefaultGeminiInput keeps one request to a few minutes of speech,
	// well inside the model's output limit; longer generations also
	// drift in pace and tone.
	DefaultGeminiInput = 4000
)

// GeminiOptions configure the Gemini engine.
type GeminiOptions struct {
	APIKey string // required: GEMINI_API_KEY or GOOGLE_API_KEY
	// BaseURL replaces the API's address; "" leaves it to the SDK, which
	// reads GOOGLE_GEMINI_BASE_URL.
	BaseURL    string
	Model      string       // "" means DefaultGeminiModel
	Voice      string       // the default voice; "" means DefaultGeminiVoice
	MaxInput   int          // bytes per request; 0 means DefaultGeminiInput
	HTTPClient *http.Client // nil means a default client
	Retry      Retry
}

// Gemini speaks with Gemini's prebuilt voices.
type Gemini struct {
	client *genai.Client
	opts   GeminiOptions
}

// NewGemini builds the engine. It makes no request.
func NewGemini(ctx context.Context, o GeminiOptions) (*Gemini, error) {
	if o.APIKey == "" {
		return nil, fmt.Errorf("gemini: %w: set GEMINI_API_KEY (or GOOGLE_API_KEY)", ErrNoEngine)
	}
	if o.Model == "" {
		o.Model = DefaultGeminiModel
	}
	if o.MaxInput <= 0 {
		o.MaxInput = DefaultGeminiInput
	}
	if o.Voice == "" {
		o.Voice = DefaultGeminiVoice
	}
	client, err := genai.NewClient(ctx, &genai.ClientConfig{
		APIKey:      o.APIKey,
		Backend:     genai.BackendGeminiAPI,
		HTTPClient:  o.HTTPClient,
		HTTPOptions: genai.HTTPOptions{BaseURL: o.BaseURL},
	})
	if err != nil {
		// The SDK's message may print its config, key included.
		return nil, errors.New("gemini: cannot create the client: check the API key and base URL")
	}
	g := &Gemini{client: client, opts: o}
	if _, err := g.Voice(ctx, o.Voice); err != nil {
		return nil, err
	}
	return g, nil
}

// Name is "gemini".
func (g *Gemini) Name() string { return "gemini" }

// MaxInput is the most text one request carries.
func (g *Gemini) MaxInput() int { return g.opts.MaxInput }

// Model is the speech model requests go to.
func (g *Gemini) Model() string { return g.opts.Model }

// Voices lists the prebuilt voices.
func (g *Gemini) Voices(context.Context) ([]Voice, error) {
	out := make([]Voice, len(geminiVoices))
	for i, v := range geminiVoices {
		out[i] = Voice{Name: v[0], Description: v[1]}
	}
	return out, nil
}

// Voice resolves a prebuilt voice name, case-insensitively ("zephyr" is
// Zephyr), or a two-speaker cast "Ana:Kore,Ben:Puck" for dialogue written
// as "Ana: ..." and "Ben: ..." lines.
func (g *Gemini) Voice(_ context.Context, name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		name = g.opts.Voice
	}
	if !strings.Contains(name, ":") {
		return geminiVoice(name)
	}
	cast, err := parseCast(name)
	if err != nil {
		return "", err
	}
	parts := make([]string, len(cast))
	for i, c := range cast {
		parts[i] = c.speaker + ":" + c.voice
	}
	return strings.Join(parts, ","), nil
}

func geminiVoice(name string) (string, error) {
	for _, v := range geminiVoices {
		if strings.EqualFold(v[0], name) {
			return v[0], nil
		}
	}
	return "", &VoiceError{Engine: "gemini", Voice: name, Known: geminiVoiceNames()}
}

type castMember struct{ speaker, voice string }

// parseCast reads "Ana:Kore,Ben:Puck": exactly two speakers, as the API
// takes, each with a prebuilt voice.
func parseCast(spec string) ([]castMember, error) {
	var cast []castMember
	for part := range strings.SplitSeq(spec, ",") {
		speaker, voice, ok := strings.Cut(part, ":")
		speaker, voice = strings.TrimSpace(speaker), strings.TrimSpace(voice)
		if !ok || speaker == "" || voice == "" || strings.ContainsAny(speaker, "\n\r\t") {
			return nil, &VoiceError{Engine: "gemini", Voice: spec, Known: geminiVoiceNames(),
				Reason: `a cast is written "Name:Voice,Name:Voice", not`}
		}
		v, err := geminiVoice(voice)
		if err != nil {
			return nil, err
		}
		cast = append(cast, castMember{speaker, v})
	}
	if len(cast) != 2 || strings.EqualFold(cast[0].speaker, cast[1].speaker) {
		return nil, &VoiceError{Engine: "gemini", Voice: spec, Known: geminiVoiceNames(),
			Reason: "multi-speaker speech takes exactly two different speakers, not"}
	}
	return cast, nil
}

// speechConfig is the request's voice: one prebuilt voice, or the
// two-speaker config for a cast.
func speechConfig(voice string) *genai.SpeechConfig {
	prebuilt := func(v string) *genai.VoiceConfig {
		return &genai.VoiceConfig{PrebuiltVoiceConfig: &genai.PrebuiltVoiceConfig{VoiceName: v}}
	}
	if !strings.Contains(voice, ":") {
		return &genai.SpeechConfig{VoiceConfig: prebuilt(voice)}
	}
	cast, _ := parseCast(voice) // Voice has checked it
	multi := &genai.MultiSpeakerVoiceConfig{}
	for _, c := range cast {
		multi.SpeakerVoiceConfigs = append(multi.SpeakerVoiceConfigs,
			&genai.SpeakerVoiceConfig{Speaker: c.speaker, VoiceConfig: prebuilt(c.voice)})
	}
	return &genai.SpeechConfig{MultiSpeakerVoiceConfig: multi}
}

// Synthesize sends one request (retried on 429 and 5xx) and returns the
// audio of its answer, in the format its MIME type states.
func (g *Gemini) Synthesize(ctx context.Context, text, voice string) (Audio, error) {
	cfg := &genai.GenerateContentConfig{
		ResponseModalities: []string{string(genai.ModalityAudio)},
		SpeechConfig:       speechConfig(voice),
	}
	contents := []*genai.Content{genai.NewContentFromText(text, genai.RoleUser)}
	var a Audio
	err := g.opts.Retry.do(ctx, func(ctx context.Context) error {
		resp, err := g.client.Models.GenerateContent(ctx, g.opts.Model, contents, cfg)
		if err != nil {
			return geminiError(err)
		}
		a, err = audioOf(resp)
		return err
	})
	return a, err
}

// audioOf collects the inline audio parts of an answer.
func audioOf(resp *genai.GenerateContentResponse) (Audio, error) {
	if resp == nil || len(resp.Candidates) == 0 || resp.Candidates[0].Content == nil {
		reason := ""
		if resp != nil && resp.PromptFeedback != nil && resp.PromptFeedback.BlockReason != "" {
			reason = " (blocked: " + string(resp.PromptFeedback.BlockReason) + ")"
		}
		return Audio{}, retryable(fmt.Errorf("the answer holds no audio%s", reason))
	}
	c := resp.Candidates[0]
	var out Audio
	for _, p := range c.Content.Parts {
		if p == nil || p.InlineData == nil {
			continue
		}
		f, err := pcmFormat(p.InlineData.MIMEType)
		if err != nil {
			return Audio{}, err
		}
		if out.PCM != nil && f != out.Format {
			return Audio{}, fmt.Errorf("the answer mixes %s and %s", out.Format, f)
		}
		out.Format = f
		out.PCM = append(out.PCM, p.InlineData.Data...)
	}
	if len(out.PCM) == 0 {
		return Audio{}, retryable(fmt.Errorf("the answer holds no audio (finish reason %s)", c.FinishReason))
	}
	out.PCM = out.PCM[:len(out.PCM)/out.Format.FrameSize()*out.Format.FrameSize()]
	return out, nil
}

// pcmFormat reads a MIME type like "audio/L16;codec=pcm;rate=24000": L16
// is 16-bit signed PCM (RFC 2586 says big-endian, but Gemini sends
// little-endian and its documentation says so); mono unless "channels"
// says otherwise.
func pcmFormat(mimeType string) (Format, error) {
	mt, params, err := mime.ParseMediaType(mimeType)
	if err != nil {
		return Format{}, fmt.Errorf("audio of unreadable type %q", mimeType)
	}
	f := Format{SampleRate: 24000, Channels: 1, Bits: 16}
	switch mt {
	case "audio/l16", "audio/pcm":
	case "audio/l8":
		f.Bits = 8
	case "audio/l24":
		f.Bits = 24
	default:
		return Format{}, fmt.Errorf("audio of type %q, not raw PCM", mimeType)
	}
	if r, ok := params["rate"]; ok {
		if f.SampleRate, err = strconv.Atoi(r); err != nil {
			return Format{}, fmt.Errorf("audio of unreadable rate %q", mimeType)
		}
	}
	if ch, ok := params["channels"]; ok {
		if f.Channels, err = strconv.Atoi(ch); err != nil {
			return Format{}, fmt.Errorf("audio of unreadable channel count %q", mimeType)
		}
	}
	if err := f.Validate(); err != nil {
		return Format{}, err
	}
	return f, nil
}

// geminiError keeps the status and message of an error answer, marking
// 408, 429 and 5xx as worth another try.
func geminiError(err error) error {
	var ae genai.APIError
	var aep *genai.APIError
	switch {
	case errors.As(err, &ae):
	case errors.As(err, &aep) && aep != nil:
		ae = *aep
	default:
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		return retryable(err) // the connection failed
	}
	msg := strings.Join(strings.Fields(ae.Message), " ")
	if len(msg) > 200 {
		msg = msg[:200] + "…"
	}
	e := fmt.Errorf("HTTP %d: %s", ae.Code, msg)
	if ae.Code == 408 || ae.Code == 429 || ae.Code >= 500 {
		return &retryError{err: e, after: retryDelay(ae.Details)}
	}
	return e
}

// retryDelay reads the wait a google.rpc.RetryInfo detail asks for
// ("retryDelay": "12s").
func retryDelay(details []map[string]any) time.Duration {
	for _, d := range details {
		if t, _ := d["@type"].(string); strings.HasSuffix(t, "google.rpc.RetryInfo") {
			if s, _ := d["retryDelay"].(string); s != "" {
				if w, err := time.ParseDuration(s); err == nil && w > 0 {
					return w
				}
			}
		}
	}
	return 0
}
