package tts

import (
	"errors"
	"fmt"
	"time"
)

// Format is the shape of PCM samples: little-endian, channels interleaved.
// 8-bit samples are unsigned (as in WAV files); wider ones are signed.
type Format struct {
	SampleRate int // frames per second, e.g. 24000
	Channels   int // 1 mono, 2 stereo, ...
	Bits       int // bits per sample: 8, 16, 24 or 32
}

// ErrBadFormat reports a Format no WAV file can carry.
var ErrBadFormat = errors.New("unsupported audio format")

// Validate reports whether f can be written and joined.
func (f Format) Validate() error {
	switch {
	case f.SampleRate <= 0 || f.SampleRate > 1_000_000:
		return fmt.Errorf("%w: sample rate %d", ErrBadFormat, f.SampleRate)
	case f.Channels <= 0 || f.Channels > 64:
		return fmt.Errorf("%w: %d channels", ErrBadFormat, f.Channels)
	case f.Bits != 8 && f.Bits != 16 && f.Bits != 24 && f.Bits != 32:
		return fmt.Errorf("%w: %d bits per sample", ErrBadFormat, f.Bits)
	}
	return nil
}

// FrameSize is the number of bytes of one frame (one sample per channel).
func (f Format) FrameSize() int { return f.Channels * f.Bits / 8 }

// ByteRate is the number of bytes of one second of audio.
func (f Format) ByteRate() int { return f.SampleRate * f.FrameSize() }

// Duration is how long n bytes of samples last.
func (f Format) Duration(n int64) time.Duration {
	if f.ByteRate() == 0 {
		return 0
	}
	frames := n / int64(f.FrameSize())
	return time.Duration(frames) * time.Second / time.Duration(f.SampleRate)
}

// frames is the number of whole frames that last d.
func (f Format) frames(d time.Duration) int {
	return int(d * time.Duration(f.SampleRate) / time.Second)
}

// String is like "24000 Hz, 16-bit, mono".
func (f Format) String() string {
	ch := fmt.Sprintf("%d channels", f.Channels)
	switch f.Channels {
	case 1:
		ch = "mono"
	case 2:
		ch = "stereo"
	}
	return fmt.Sprintf("%d Hz, %d-bit, %s", f.SampleRate, f.Bits, ch)
}

// Audio is PCM samples with their format.
type Audio struct {
	Format Format
	PCM    []byte
}

// Duration is how long the audio lasts.
func (a Audio) Duration() time.Duration { return a.Format.Duration(int64(len(a.PCM))) }

// sample returns sample i (counted in samples, not frames) as a signed
// value, and set writes one back; 8-bit samples are shifted to signed.
func (f Format) sample(pcm []byte, i int) int32 {
	switch f.Bits {
	case 8:
		return int32(pcm[i]) - 128
	case 16:
		return int32(int16(uint16(pcm[2*i]) | uint16(pcm[2*i+1])<<8))
	case 24:
		v := int32(pcm[3*i]) | int32(pcm[3*i+1])<<8 | int32(pcm[3*i+2])<<16
		return v << 8 >> 8 // sign-extend
	default:
		return int32(uint32(pcm[4*i]) | uint32(pcm[4*i+1])<<8 | uint32(pcm[4*i+2])<<16 | uint32(pcm[4*i+3])<<24)
	}
}

func (f Format) setSample(pcm []byte, i int, v int32) {
	switch f.Bits {
	case 8:
		pcm[i] = byte(v + 128)
	case 16:
		pcm[2*i], pcm[2*i+1] = byte(v), byte(v>>8)
	case 24:
		pcm[3*i], pcm[3*i+1], pcm[3*i+2] = byte(v), byte(v>>8), byte(v>>16)
	default:
		pcm[4*i], pcm[4*i+1], pcm[4*i+2], pcm[4*i+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
	}
}

// fade ramps the first n frames of pcm up from silence (in) or the last n
// frames down to silence (out), so that a join with silence or with
// another piece has no step in it, which the ear hears as a click.
func (f Format) fade(pcm []byte, n int, in bool) {
	total := len(pcm) / f.FrameSize()
	n = min(n, total)
	if n <= 0 {
		return
	}
	for k := range n {
		frame := k
		if !in {
			frame = total - 1 - k
		}
		// The gain goes 0, 1/n, ... so the outermost frame is silent.
		gain := int64(k)
		for c := range f.Channels {
			i := frame*f.Channels + c
			f.setSample(pcm, i, int32(int64(f.sample(pcm, i))*gain/int64(n)))
		}
	}
}

// silence returns d of silent samples.
func (f Format) silence(d time.Duration) []byte {
	b := make([]byte, f.frames(d)*f.FrameSize())
	if f.Bits == 8 {
		for i := range b {
			b[i] = 128
		}
	}
	return b
}
