package tts

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// HeaderSize is the size of the RIFF/WAV header Header writes.
const HeaderSize = 44

// ErrBadWAV reports data that is not a PCM WAV file.
var ErrBadWAV = errors.New("not a PCM WAV file")

// Header returns the 44-byte RIFF/WAV header of dataLen bytes of samples
// in format f.
func Header(f Format, dataLen int64) ([]byte, error) {
	if err := f.Validate(); err != nil {
		return nil, err
	}
	if dataLen < 0 || dataLen > math.MaxUint32-36 {
		return nil, fmt.Errorf("%w: %d bytes of samples do not fit a WAV file", ErrBadFormat, dataLen)
	}
	h := make([]byte, HeaderSize)
	le := binary.LittleEndian
	copy(h[0:], "RIFF")
	le.PutUint32(h[4:], uint32(36+dataLen))
	copy(h[8:], "WAVEfmt ")
	le.PutUint32(h[16:], 16) // size of the fmt chunk
	le.PutUint16(h[20:], 1)  // PCM
	le.PutUint16(h[22:], uint16(f.Channels))
	le.PutUint32(h[24:], uint32(f.SampleRate))
	le.PutUint32(h[28:], uint32(f.ByteRate()))
	le.PutUint16(h[32:], uint16(f.FrameSize()))
	le.PutUint16(h[34:], uint16(f.Bits))
	copy(h[36:], "data")
	le.PutUint32(h[40:], uint32(dataLen))
	return h, nil
}

// EncodeWAV returns a as a complete WAV file.
func EncodeWAV(a Audio) ([]byte, error) {
	h, err := Header(a.Format, int64(len(a.PCM)))
	if err != nil {
		return nil, err
	}
	return append(h, a.PCM...), nil
}

// ReadWAV parses a PCM WAV file. A data chunk whose declared size runs
// past the end (what programs streaming to a pipe write, espeak-ng
// --stdout among them) holds whatever follows; a trailing partial frame is
// dropped.
func ReadWAV(data []byte) (Audio, error) {
	le := binary.LittleEndian
	if len(data) < 12 || string(data[0:4]) != "RIFF" || string(data[8:12]) != "WAVE" {
		return Audio{}, fmt.Errorf("%w: no RIFF/WAVE header", ErrBadWAV)
	}
	var f Format
	haveFmt := false
	for p := 12; p+8 <= len(data); {
		id, size := string(data[p:p+4]), int64(le.Uint32(data[p+4:]))
		body := data[p+8:]
		switch id {
		case "fmt ":
			if size < 16 || len(body) < 16 {
				return Audio{}, fmt.Errorf("%w: short fmt chunk", ErrBadWAV)
			}
			tag := le.Uint16(body[0:])
			// 0xFFFE (extensible) carries its real type in a GUID whose
			// first two bytes are 1 for PCM.
			if tag == 0xFFFE && size >= 40 && len(body) >= 26 {
				tag = le.Uint16(body[24:])
			}
			if tag != 1 {
				return Audio{}, fmt.Errorf("%w: format tag %d is not PCM", ErrBadWAV, tag)
			}
			f = Format{Channels: int(le.Uint16(body[2:])), SampleRate: int(le.Uint32(body[4:])), Bits: int(le.Uint16(body[14:]))}
			if err := f.Validate(); err != nil {
				return Audio{}, err
			}
			haveFmt = true
		case "data":
			if !haveFmt {
				return Audio{}, fmt.Errorf("%w: data before fmt", ErrBadWAV)
			}
			pcm := body
			if size < int64(len(body)) {
				pcm = body[:size]
			}
			pcm = pcm[:len(pcm)/f.FrameSize()*f.FrameSize()]
			return Audio{Format: f, PCM: pcm}, nil
		}
		if size > int64(len(body)) {
			break
		}
		p += 8 + int(size) + int(size&1) // chunks are padded to even sizes
	}
	return Audio{}, fmt.Errorf("%w: no data chunk", ErrBadWAV)
}
