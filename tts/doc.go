// Package tts turns text into speech. An Engine synthesises one piece of
// text with one voice and returns PCM samples with their Format; a Speaker
// splits a long text at paragraph and sentence boundaries within the
// engine's input limit, synthesises the pieces with bounded concurrency and
// joins them in order, with a short pause between paragraphs and short
// fades at every join so that nothing clicks. The result is written as a
// WAV file (a 44-byte RIFF header before the samples).
//
// Two engines: Gemini's speech models through google.golang.org/genai
// (studio voices, needs a key), and the espeak-ng program (offline, no
// key). The package is a leaf: it imports the standard library and the
// Gemini SDK only, and it reads no environment itself: keys, addresses and
// program paths are passed in.
package tts
