package agent

import (
	"fmt"

	"github.com/agentcli/agent/agent/llm"
)

// Images fade like old tool results: when the conversation outgrows its
// room, the images of older messages go, oldest first, each leaving a
// line in its message that says what was there. A dropped image stays
// dropped (the same line, byte for byte, in every later request), so the
// prefix stays cached.

// imageKey names an image for eliding: the call whose result it is, or
// the digest of an image a person attached.
func imageKey(img llm.Image) string {
	if img.CallID != "" {
		return "image:" + img.CallID
	}
	return "image:" + img.SHA256
}

// dropImages removes from m the images want picks, each with a line that
// says so, and calls done (when not nil) with each key dropped. m's
// image slice is replaced, never changed in place: it is the session's.
func dropImages(m *llm.Message, want func(key string) bool, done func(key string)) {
	if len(m.Images) == 0 {
		return
	}
	var kept []llm.Image
	for _, img := range m.Images {
		k := imageKey(img)
		if !want(k) {
			kept = append(kept, img)
			continue
		}
		if done != nil {
			done(k)
		}
		if img.CallID != "" {
			m.Text += fmt.Sprintf("\n[The image %s (call %s) was removed to save context; read it again if you need it.]", img.Source, img.CallID)
		} else {
			m.Text += fmt.Sprintf("\n[The image %s the user attached was removed to save context.]", img.Source)
		}
	}
	m.Images = kept
}

// elideImage marks an image as dropped for the rest of the conversation.
func (b *Budget) elideImage(key string) {
	if b.elided == nil {
		b.elided = map[string]bool{}
	}
	b.elided[key] = true
}

// hasImages reports whether any message holds an image.
func hasImages(msgs []llm.Message) bool {
	for _, m := range msgs {
		if len(m.Images) > 0 {
			return true
		}
	}
	return false
}
