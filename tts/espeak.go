package tts

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"sync"
)

// Espeak defaults.
const (
	EspeakProgram      = "espeak-ng"
	DefaultEspeakVoice = "en-us"
	// DefaultEspeakInput is small enough that a long text makes several
	// pieces for the Speaker to run side by side, and large enough that
	// the program's start-up (tens of milliseconds) stays a small share.
	DefaultEspeakInput = 2000
)

// FindEspeak returns the path of the espeak-ng program on PATH, or
// ErrNoEngine with how to install it.
func FindEspeak() (string, error) { return findEspeak(nil) }

// findEspeak finds espeak-ng with lookPath (exec.LookPath when nil). A
// program found only where it is not taken from (lookPath's own error)
// is not installed either, but the error says lookPath's words.
func findEspeak(lookPath func(string) (string, error)) (string, error) {
	if lookPath == nil {
		lookPath = exec.LookPath
	}
	p, err := lookPath(EspeakProgram)
	switch {
	case errors.Is(err, exec.ErrNotFound):
		return "", fmt.Errorf("espeak: %w: espeak-ng is not installed (apt-get install espeak-ng, brew install espeak-ng, or dnf install espeak-ng)", ErrNoEngine)
	case err != nil:
		return "", fmt.Errorf("espeak: %w: %v", ErrNoEngine, err)
	}
	return p, nil
}

// EspeakOptions configure the espeak-ng engine.
type EspeakOptions struct {
	Path     string // the program; "" looks espeak-ng up with LookPath
	Voice    string // the default voice; "" means DefaultEspeakVoice
	MaxInput int    // bytes per run; 0 means DefaultEspeakInput
	// LookPath finds the program when Path is empty; exec.LookPath when
	// nil. The agent gives its resolver, which never takes a program
	// from a folder a sandboxed command could write.
	LookPath func(name string) (string, error)
	// Env is the program's environment; nil means the agent's. The
	// agent gives it a PATH without the project's folders and without
	// its keys.
	Env []string
}

// Espeak speaks by running the espeak-ng program, offline. The text goes
// on its standard input, never on its command line, so no text is ever
// read as an option and none shows in the process list.
type Espeak struct {
	opts EspeakOptions

	mu     sync.Mutex
	voices []Voice
	extra  []espeakVoice // what else --voices said of each, same order
}

// NewEspeak builds the engine; it fails with ErrNoEngine when the program
// is missing.
func NewEspeak(o EspeakOptions) (*Espeak, error) {
	if o.Path == "" {
		p, err := findEspeak(o.LookPath)
		if err != nil {
			return nil, err
		}
		o.Path = p
	} else if _, err := exec.LookPath(o.Path); err != nil {
		return nil, fmt.Errorf("espeak: %w: cannot run %s", ErrNoEngine, o.Path)
	}
	if o.Voice == "" {
		o.Voice = DefaultEspeakVoice
	}
	if o.MaxInput <= 0 {
		o.MaxInput = DefaultEspeakInput
	}
	return &Espeak{opts: o}, nil
}

// Name is "espeak".
func (e *Espeak) Name() string { return "espeak" }

// MaxInput is the most text one run speaks.
func (e *Espeak) MaxInput() int { return e.opts.MaxInput }

// Voices runs espeak-ng --voices (once, when it succeeds) and lists what
// it printed.
func (e *Espeak) Voices(ctx context.Context) ([]Voice, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.voices != nil {
		return e.voices, nil
	}
	cmd := exec.CommandContext(ctx, e.opts.Path, "--voices")
	cmd.Env = e.opts.Env
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("espeak-ng --voices: %w", err)
	}
	voices, extra := parseEspeakVoices(string(out))
	if len(voices) == 0 {
		return nil, errors.New("espeak-ng --voices listed no voices")
	}
	e.voices, e.extra = voices, extra
	return voices, nil
}

// espeakVoice is what else a line of espeak-ng --voices says of a voice.
type espeakVoice struct {
	file    string         // "gmw/en-US"
	aliases map[string]int // other language codes, with their priority
}

// parseEspeakVoices reads the table espeak-ng --voices prints:
//
//	Pty Language       Age/Gender VoiceName          File                 Other Languages
//	 2  en-gb           --/M      English_(Great_Britain) gmw/en               (en 2)
func parseEspeakVoices(out string) ([]Voice, []espeakVoice) {
	var voices []Voice
	var extra []espeakVoice
	for i, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if i == 0 || len(f) < 5 {
			continue
		}
		gender := ""
		if _, g, ok := strings.Cut(f[2], "/"); ok {
			gender = map[string]string{"M": "male", "F": "female"}[g]
		}
		voices = append(voices, Voice{Name: f[1], Language: f[1], Gender: gender, Description: strings.ReplaceAll(f[3], "_", " ")})
		ev := espeakVoice{file: f[4], aliases: map[string]int{}}
		// "(zh-cmn 5)(zh 5)": codes with their priorities.
		for part := range strings.SplitSeq(strings.Join(f[5:], " "), "(") {
			kv := strings.Fields(strings.ReplaceAll(part, ")", " "))
			if len(kv) != 2 {
				continue
			}
			if pri, err := strconv.Atoi(kv[1]); err == nil {
				ev.aliases[strings.ToLower(kv[0])] = pri
			}
		}
		extra = append(extra, ev)
	}
	return voices, extra
}

// Voice resolves a language code ("en-us"), a voice name
// ("English_(America)") or a voice file ("gmw/en-US"), case-insensitively,
// or else a code espeak-ng lists as another language of a voice ("fr" is
// fr-fr, "en" en-gb: the voice listing it with the best priority), to the
// voice's language code, optionally followed by a variant ("en-us+f3"). A
// name that is none of these, shell characters and all, is refused before
// anything runs.
func (e *Espeak) Voice(ctx context.Context, name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		name = e.opts.Voice
	}
	voices, err := e.Voices(ctx)
	if err != nil {
		return "", err
	}
	if strings.Contains(name, ":") {
		// "Ana:Kore,Ben:Puck" is a cast of Gemini's voices, not a
		// voice of espeak-ng's: say what it needs, not which of 130
		// languages exist.
		return "", &VoiceError{Engine: "espeak", Voice: name, Reason: "a dialogue needs Gemini's voices (set GEMINI_API_KEY); espeak-ng speaks with one voice and cannot take the cast"}
	}
	base, variant, _ := strings.Cut(name, "+")
	if variant != "" && !isVariant(variant) {
		return "", e.unknown(name, "bad variant in voice")
	}
	found := ""
	for i, v := range voices {
		if strings.EqualFold(base, v.Language) || strings.EqualFold(base, strings.ReplaceAll(v.Description, " ", "_")) ||
			strings.EqualFold(base, e.extra[i].file) {
			found = v.Language
			break
		}
	}
	if found == "" {
		best := 0
		for i, v := range voices {
			if pri, ok := e.extra[i].aliases[strings.ToLower(base)]; ok && (found == "" || pri < best) {
				found, best = v.Language, pri
			}
		}
	}
	switch {
	case found == "":
		return "", e.unknown(name, "")
	case variant != "":
		return found + "+" + strings.ToLower(variant), nil
	}
	return found, nil
}

// isVariant accepts espeak-ng's variant names ("f3", "klatt2", "m1").
func isVariant(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return len(s) <= 32
}

func (e *Espeak) unknown(name, reason string) error {
	var known []string
	for _, v := range e.voices {
		if len(known) == 0 || known[len(known)-1] != v.Language {
			known = append(known, v.Language)
		}
	}
	return &VoiceError{Engine: "espeak", Voice: name, Known: known, Reason: reason}
}

// Synthesize runs espeak-ng once, text on standard input (UTF-8), WAV on
// standard output.
func (e *Espeak) Synthesize(ctx context.Context, text, voice string) (Audio, error) {
	cmd := exec.CommandContext(ctx, e.opts.Path, "--stdin", "--stdout", "-b", "1", "-v", voice)
	cmd.Env = e.opts.Env
	cmd.Stdin = strings.NewReader(text)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		return Audio{}, ctx.Err()
	}
	msg := strings.Join(strings.Fields(stderr.String()), " ")
	if err != nil {
		if msg != "" {
			return Audio{}, fmt.Errorf("espeak-ng: %s (%w)", msg, err)
		}
		return Audio{}, fmt.Errorf("espeak-ng: %w", err)
	}
	a, err := ReadWAV(stdout.Bytes())
	if err != nil || len(a.PCM) == 0 {
		// espeak-ng exits 0 after some failures, saying why on stderr.
		if msg == "" {
			msg = "no audio"
			if err != nil {
				msg = err.Error()
			}
		}
		return Audio{}, fmt.Errorf("espeak-ng: %s", msg)
	}
	return a, nil
}
