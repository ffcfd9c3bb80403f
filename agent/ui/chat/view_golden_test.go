package chat

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

var updateGolden = flag.Bool("update", false, "rewrite the View goldens in testdata/tui")

// fixedFolder is a conversation shown in a folder of a fixed name, so
// that the status line is the same wherever the test's project is.
type fixedFolder struct{ *testConv }

func (f fixedFolder) Info() Info {
	i := f.testConv.Info()
	i.Folder = "~/proj"
	return i
}

// TestViewGoldens compares the chat's live area (View, colours left out)
// in three states at three widths with testdata/tui/view_*.txt: a write
// waiting for approval with its diff, the /rewind picker, and the slash
// completion. Run with -update to rewrite them after a change meant to
// show.
func TestViewGoldens(t *testing.T) {
	at := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, width := range []int{60, 80, 120} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			b := newTestConv(t,
				reply(`<tool_call name="read_file"><file_path>a.txt</file_path></tool_call>`),
				reply(writeCall), reply("Rewritten."))
			b.write(t, "a.txt", "old\n")
			h := newHarness(t, b, Options{Conversation: fixedFolder{b}, Now: func() time.Time { return at }})
			h.deliver(tea.WindowSizeMsg{Width: width, Height: 30})

			h.say("rewrite a.txt")
			h.until("the question", func() bool { return h.m.ask != nil })
			h.settle() // the read's card printed above, as it is by then on a screen
			golden(t, fmt.Sprintf("view_approval_%d", width), h.view())
			h.typeText("y")
			h.until("the answer", func() bool { return h.idle() && !h.m.running })

			h.say("/rewind")
			h.until("the picker", func() bool { return h.m.picker != nil })
			h.settle()
			golden(t, fmt.Sprintf("view_picker_%d", width), h.view())
			h.press(tea.KeyEscape)

			h.typeText("/re")
			golden(t, fmt.Sprintf("view_completion_%d", width), h.view())
		})
	}
}

// golden compares got with testdata/tui/name.txt at the repository's
// root, beside the real-terminal screens.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("..", "..", "..", "testdata", "tui", name+".txt")
	if *updateGolden {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("View differs from %s (rerun with -update if the change is right)\n--- want\n%s\n--- got\n%s", path, want, got)
	}
}
