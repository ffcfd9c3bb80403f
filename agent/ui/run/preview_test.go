package run

import (
	"strings"
	"testing"
)

// One endless line of output (no line break) is shown clipped, not whole.
func TestOutputViewClipsALongLine(t *testing.T) {
	var b strings.Builder
	v := &outputView{w: &b}
	for range 1000 {
		v.add(strings.Repeat("x", 1000))
	}
	v.end()
	if b.Len() > outputLineBytes+20 || !strings.HasSuffix(b.String(), "…\n") {
		t.Errorf("a 1 MB line was shown as %d bytes", b.Len())
	}
}
