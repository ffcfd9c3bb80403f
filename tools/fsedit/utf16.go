package fsedit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"io"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/sandbox"
)

// UTF-16 files with a byte-order mark (Windows tools write them: .reg,
// some .rc, .ps1 and .csv) are text too. The tools read them decoded, as
// UTF-8 like every other file, and write them back in the same encoding
// with the same mark: the model never sees the encoding, only the text.
//
// An edit of such a file works on the decoded text in memory (the file
// is at most replaceKeep), through the same code as any edit: the old
// content is read from the decoded text, and the new content is encoded
// on its way to the temp file, so that the hashes of the backup manifest
// and of the read state are those of the bytes on disk.

// utf16Of returns the UTF-16 encoding that the file's first bytes announce
// with a byte-order mark, or "".
func utf16Of(head []byte) string {
	switch {
	case len(head) >= 2 && head[0] == 0xff && head[1] == 0xfe:
		return sandbox.EncUTF16LE
	case len(head) >= 2 && head[0] == 0xfe && head[1] == 0xff:
		return sandbox.EncUTF16BE
	}
	return ""
}

// fileUTF16 peeks at the start of f.
func fileUTF16(f io.ReaderAt) string {
	var b [2]byte
	n, _ := f.ReadAt(b[:], 0)
	return utf16Of(b[:n])
}

// decodeUTF16 decodes raw (byte-order mark first) to UTF-8; ok is false
// for an odd length or unpaired surrogates, which a write would lose.
func decodeUTF16(raw []byte, enc string) (string, bool) {
	raw = raw[2:]
	if len(raw)%2 != 0 {
		return "", false
	}
	u := make([]uint16, len(raw)/2)
	for i := range u {
		if enc == sandbox.EncUTF16LE {
			u[i] = uint16(raw[2*i]) | uint16(raw[2*i+1])<<8
		} else {
			u[i] = uint16(raw[2*i])<<8 | uint16(raw[2*i+1])
		}
	}
	var b bytes.Buffer
	b.Grow(len(u))
	for i := 0; i < len(u); i++ {
		c := rune(u[i])
		if utf16.IsSurrogate(c) {
			if i+1 >= len(u) {
				return "", false
			}
			c = utf16.DecodeRune(c, rune(u[i+1]))
			if c == utf8.RuneError {
				return "", false
			}
			i++
		}
		b.WriteRune(c)
	}
	return b.String(), true
}

// openUTF16 prepares an edit of a UTF-16 file: it checks the raw bytes
// against the read, then lets the edit read the decoded text, as if the
// model's read had been of that text.
func openUTF16(e *edit, enc string) (*tools.Result, error) {
	if e.fi.Size() > replaceKeep {
		res := tools.Errorf(tools.CodeFileTooLarge, "%s is a UTF-16 file of %s; the tools edit UTF-16 files up to %s", e.t.Asked, sandbox.HumanSize(e.fi.Size()), sandbox.HumanSize(replaceKeep))
		return &res, nil
	}
	raw := make([]byte, e.fi.Size())
	if _, err := e.f.ReadAt(raw, 0); err != nil && err != io.EOF {
		return nil, fmt.Errorf("read %s: %w", e.t.Rel, err)
	}
	sum := sha256.Sum256(raw)
	if sum != e.seen.sum {
		return nil, sandbox.ErrStale
	}
	text, ok := decodeUTF16(raw, enc)
	if !ok {
		res := tools.Errorf(tools.CodeUnsupportedType, "%s starts with a UTF-16 mark but is not valid UTF-16; the tools do not change it", e.t.Asked)
		return &res, nil
	}
	e.enc, e.rawSum = enc, hex.EncodeToString(sum[:])
	e.src, e.size = bytes.NewReader([]byte(text)), int64(len(text))
	// What the model read, in terms of the decoded text.
	e.seen.sum = sha256.Sum256([]byte(text))
	e.seen.crc = crc32.Checksum([]byte(text), sandbox.Castagnoli())
	e.seen.size = int64(len(text))
	e.seen.cps = nil
	if e.dry != nil {
		e.dry.enc = enc
	}
	return nil, nil
}
