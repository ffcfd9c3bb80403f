package tts_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/agentcli/agent/tts"
)

func TestWAVRoundTrip(t *testing.T) {
	for _, f := range []tts.Format{
		{SampleRate: 24000, Channels: 1, Bits: 16},
		{SampleRate: 44100, Channels: 2, Bits: 16},
		{SampleRate: 8000, Channels: 1, Bits: 8},
		{SampleRate: 48000, Channels: 6, Bits: 24},
		{SampleRate: 96000, Channels: 2, Bits: 32},
	} {
		pcm := make([]byte, f.ByteRate()/10) // 100 ms
		for i := range pcm {
			pcm[i] = byte(i * 7)
		}
		wav, err := tts.EncodeWAV(tts.Audio{Format: f, PCM: pcm})
		if err != nil {
			t.Fatal(err)
		}
		le := binary.LittleEndian
		if len(wav) != 44+len(pcm) || le.Uint32(wav[4:]) != uint32(36+len(pcm)) || le.Uint32(wav[28:]) != uint32(f.ByteRate()) ||
			le.Uint16(wav[32:]) != uint16(f.FrameSize()) || le.Uint32(wav[40:]) != uint32(len(pcm)) {
			t.Errorf("%v: bad header % x", f, wav[:44])
		}
		a, err := tts.ReadWAV(wav)
		if err != nil || a.Format != f || !bytes.Equal(a.PCM, pcm) {
			t.Errorf("%v: read back %v, %d bytes, %v", f, a.Format, len(a.PCM), err)
		}
		if d := a.Duration().Milliseconds(); d != 100 {
			t.Errorf("%v: duration %d ms", f, d)
		}
	}
}

func TestReadWAVStreamed(t *testing.T) {
	// What espeak-ng --stdout writes: sizes it cannot know yet, set huge.
	f := tts.Format{SampleRate: 22050, Channels: 1, Bits: 16}
	wav, _ := tts.EncodeWAV(tts.Audio{Format: f, PCM: make([]byte, 1001)})
	binary.LittleEndian.PutUint32(wav[4:], 0x7ffff024)
	binary.LittleEndian.PutUint32(wav[40:], 0x7ffff000)
	a, err := tts.ReadWAV(wav)
	if err != nil || len(a.PCM) != 1000 {
		t.Errorf("got %d bytes, %v; want 1000 (whole frames)", len(a.PCM), err)
	}
}

func TestWAVBad(t *testing.T) {
	for _, f := range []tts.Format{{}, {SampleRate: 24000, Channels: 1, Bits: 12}, {SampleRate: 24000, Bits: 16}} {
		if _, err := tts.EncodeWAV(tts.Audio{Format: f}); !errors.Is(err, tts.ErrBadFormat) {
			t.Errorf("EncodeWAV(%v) = %v", f, err)
		}
	}
	for _, data := range [][]byte{nil, []byte("RIFF....WAVE"), []byte("ID3 mp3 data here..."), []byte("RIFF\x10\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x03\x00\x01\x00\x80\xbb\x00\x00\x00\x00\x00\x00\x04\x00\x20\x00")} {
		if _, err := tts.ReadWAV(data); err == nil {
			t.Errorf("ReadWAV(%q) accepted", data)
		}
	}
}
