package conversation

import (
	"strings"
	"testing"
)

func TestPipedFenceOutlastsBackticks(t *testing.T) {
	got := withPiped("p", "a ``` b", 0)
	if !strings.HasPrefix(got, "p\n\n````\n") || !strings.HasSuffix(got, "\n````\n") {
		t.Errorf("withPiped = %q", got)
	}
}

func TestFitPipedKeepsRunes(t *testing.T) {
	got, cut := fitPiped("ééééé", 0, 3) // 10 bytes, room for 3
	if got != "é" || cut != 8 {
		t.Errorf("fitPiped = %q, %d; want one whole rune and 8 bytes cut", got, cut)
	}
}
