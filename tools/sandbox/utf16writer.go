package sandbox

import (
	"io"
	"unicode/utf16"
	"unicode/utf8"
)

// Encodings as reported in metadata.
const (
	EncUTF16LE = "utf-16le"
	EncUTF16BE = "utf-16be"
)

// utf16Writer encodes the UTF-8 written to it as UTF-16 into w, the
// byte-order mark first. A rune split across writes is carried over.
type UTF16Writer struct {
	w     io.Writer
	enc   string
	began bool
	carry []byte
	out   []byte
}

// NewUTF16Writer encodes what is written to it into w in enc
// (EncUTF16LE or EncUTF16BE).
func NewUTF16Writer(w io.Writer, enc string) *UTF16Writer { return &UTF16Writer{w: w, enc: enc} }

func (u *UTF16Writer) Write(p []byte) (int, error) {
	n := len(p)
	if !u.began {
		u.began = true
		if err := u.emit(0xfeff); err != nil {
			return 0, err
		}
	}
	if len(u.carry) > 0 {
		p = append(u.carry, p...)
		u.carry = nil
	}
	u.out = u.out[:0]
	for len(p) > 0 {
		if !utf8.FullRune(p) {
			u.carry = append([]byte(nil), p...)
			break
		}
		r, size := utf8.DecodeRune(p)
		p = p[size:]
		if r >= 0x10000 {
			r1, r2 := utf16.EncodeRune(r)
			u.put(uint16(r1))
			u.put(uint16(r2))
		} else {
			u.put(uint16(r))
		}
	}
	if _, err := u.w.Write(u.out); err != nil {
		return 0, err
	}
	return n, nil
}

// Finish writes the mark of an empty content.
func (u *UTF16Writer) Finish() error {
	if u.began {
		return nil
	}
	u.began = true
	return u.emit(0xfeff)
}

func (u *UTF16Writer) emit(c uint16) error {
	u.out = u.out[:0]
	u.put(c)
	_, err := u.w.Write(u.out)
	return err
}

func (u *UTF16Writer) put(c uint16) {
	if u.enc == EncUTF16LE {
		u.out = append(u.out, byte(c), byte(c>>8))
	} else {
		u.out = append(u.out, byte(c>>8), byte(c))
	}
}
