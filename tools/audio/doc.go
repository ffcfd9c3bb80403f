// Package audio holds the audio_generation tool: the model gives text and
// a .wav path inside the project, and the tool speaks the text with one
// of the configured speech engines (package tts) and writes the file
// through the project's sandboxed writer, which backs up a file it
// replaces. A failure halfway (the provider refusing the third piece)
// writes nothing: the file is written only once all of it is spoken.
package audio
