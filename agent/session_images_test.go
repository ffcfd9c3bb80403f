package agent

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/llm/llmtest"
)

// TestRewindTakesImagesBack: a prompt that merged into the message
// before it (tool responses left unanswered) brings its images along,
// and rewinding the turn takes exactly those away again, in memory and
// in a resumed session.
func TestRewindTakesImagesBack(t *testing.T) {
	root := t.TempDir()
	s := NewSession(root)
	defer s.Close()
	a, b := llmtest.PNGImage(t, 8, 8), llmtest.PNGImage(t, 9, 9)
	if err := s.Append(llm.Message{Role: llm.User, Text: "responses", Images: []llm.Image{a}}); err != nil {
		t.Fatal(err)
	}
	turn, err := s.BeginTurn("look")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Append(llm.Message{Role: llm.User, Text: "look", Images: []llm.Image{b}}); err != nil {
		t.Fatal(err)
	}
	if m := s.Messages(); len(m) != 1 || len(m[0].Images) != 2 {
		t.Fatalf("after the merge: %d messages, %d images", len(m), len(m[0].Images))
	}
	if _, err := s.Rewind(turn.Run, nil); err != nil {
		t.Fatal(err)
	}
	check := func(s *Session, when string) {
		m := s.Messages()
		if len(m) != 1 || m[0].Text != "responses" || len(m[0].Images) != 1 || m[0].Images[0].SHA256 != a.SHA256 {
			t.Errorf("%s: %+v, want the first message with its own image only", when, m)
		}
	}
	check(s, "after the rewind")
	r, err := OpenSession(root, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	check(r, "resumed")
}

// TestHostileImageReferences: a log from a cloned repository may name
// any path as an image; only digests name files, and only regular ones
// that match are read.
func TestHostileImageReferences(t *testing.T) {
	root := t.TempDir()
	s := NewSession(root)
	if err := s.Append(llm.Message{Role: llm.User, Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	secret := filepath.Join(root, "secret.png")
	os.WriteFile(secret, llmtest.PNG(t, 4, 4), 0o600)
	sum := sha256.Sum256(llmtest.PNG(t, 4, 4))
	digest := hex.EncodeToString(sum[:])
	os.MkdirAll(s.imagesDir(), 0o700)
	os.Symlink(secret, filepath.Join(s.imagesDir(), digest+".png"))
	f, _ := os.OpenFile(s.file(), os.O_APPEND|os.O_WRONLY, 0)
	fmt.Fprintf(f, `{"type":"message","role":"user","text":"a","images":[{"mime":"image/png","sha256":"../../secret"}]}`+"\n")
	fmt.Fprintf(f, `{"type":"message","role":"assistant","text":"b"}`+"\n")
	fmt.Fprintf(f, `{"type":"message","role":"user","text":"c","images":[{"mime":"image/png","sha256":"%s","source":"x.png"}]}`+"\n", digest)
	f.Close()
	r, err := OpenSession(root, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, m := range r.Messages() {
		if len(m.Images) > 0 {
			t.Errorf("an image was restored from a hostile reference: %+v", m)
		}
	}
	msgs := r.Messages()
	if !strings.Contains(msgs[0].Text, "the log names it wrongly") || !strings.Contains(msgs[2].Text, "not a regular file") {
		t.Errorf("texts %q / %q: want each image's reason", msgs[0].Text, msgs[2].Text)
	}
}
