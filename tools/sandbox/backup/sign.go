package backup

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
)

// The manifest is project state, and a project may come from anyone: a
// cloned repository can ship a .agent/backups of its own, whose entries
// say "before the last run, src/main.go held this", with the content to
// put there. So every entry the agent writes is signed (HMAC-SHA256)
// with a key only the user has (kept in their configuration folder, see
// sandbox.Options.BackupKey), and an entry is Verified only when its
// signature checks with that key. The signature is the line's last
// field, over the line's bytes without it:
//
//	{"time":...,"path":"a.md",...,"sig":"<64 hex digits>"}

// sigField starts the signature at the end of a line; sigLen is the
// length of what follows the payload: the field, 64 hex digits, `"}`.
const (
	sigField = `,"sig":"`
	sigLen   = len(sigField) + 2*sha256.Size + 2
)

// sign appends the signature of the encoded entry line (a JSON object
// without "sig") with key.
func sign(line, key []byte) []byte {
	mac := hmac.New(sha256.New, key)
	mac.Write(line)
	sum := hex.EncodeToString(mac.Sum(nil))
	out := make([]byte, 0, len(line)+sigLen-1)
	out = append(out, line[:len(line)-1]...)
	out = append(out, sigField...)
	out = append(out, sum...)
	return append(out, `"}`...)
}

// verify reports whether line ends with a signature of the rest of it by
// key.
func verify(line, key []byte) bool {
	if len(key) == 0 || len(line) < sigLen+2 || !bytes.HasSuffix(line, []byte(`"}`)) {
		return false
	}
	cut := len(line) - sigLen
	if !bytes.Equal(line[cut:cut+len(sigField)], []byte(sigField)) {
		return false
	}
	got, err := hex.DecodeString(string(line[cut+len(sigField) : len(line)-2]))
	if err != nil {
		return false
	}
	payload := append(append([]byte(nil), line[:cut]...), '}')
	mac := hmac.New(sha256.New, key)
	mac.Write(payload)
	return hmac.Equal(got, mac.Sum(nil))
}
