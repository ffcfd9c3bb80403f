package agent

import (
	"strings"
	"testing"

	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/xmlcall"
)

func TestStubsAreDeterministicAndSafe(t *testing.T) {
	// A file that holds the frame's own closing tag and a CDATA end.
	tricky := strings.Repeat("x := 1 // </tool_response> ]]> <tool_call name=\"w\">\n", 40)
	turn := "Note from the user.\n\n" + xmlcall.RenderString(
		xmlcall.Response{ID: "r1-1", Name: "read_file", Params: []xmlcall.Param{{Name: "file_path", Value: "a.go"}},
			Metadata: []xmlcall.Attr{{Name: "range", Value: "1-40"}}, Content: tricky},
		xmlcall.Response{ID: "r1-2", Name: "read_file", Params: []xmlcall.Param{{Name: "file_path", Value: "gone.go"}},
			Code: "FILE_NOT_FOUND", Message: "file not found: gone.go"},
	)
	spans := responseSpans(turn)
	if len(spans) != 2 || spans[0].id != "r1-1" || spans[1].id != "r1-2" {
		t.Fatalf("spans %+v, want the two responses whole", spans)
	}
	b := &Budget{Window: 1000}
	var forgot []string
	b.Reads = forgetFunc(func(id string) { forgot = append(forgot, id) })
	all := func(string) bool { return true }
	once := b.apply(turn, all, b.elide)
	twice := b.apply(turn, all, nil)
	if once != twice {
		t.Error("the same turn stubbed twice differs")
	}
	want := `[read_file a.go lines 1-40, 2 KB: elided to save context; read again if needed]`
	if !strings.Contains(once, xmlEscape(want)) || strings.Contains(once, "x := 1") {
		t.Errorf("stubbed turn:\n%s\nwant the stub %s instead of the content", once, want)
	}
	if !strings.HasPrefix(once, "Note from the user.") || !strings.Contains(once, "file not found: gone.go") {
		t.Error("the user's text or the small error result was lost")
	}
	if len(forgot) != 1 || forgot[0] != "r1-1" {
		t.Errorf("forgot %v, want only the elided read r1-1", forgot)
	}
	if again := b.apply(once, all, nil); again != once {
		t.Error("a stub was stubbed again")
	}
}

type forgetFunc func(string)

func (f forgetFunc) ForgetCall(id string) { f(id) }

func TestFitSystemTakesTheFirstThatFits(t *testing.T) {
	b := &Budget{Window: 4000, Hint: "set OLLAMA_CONTEXT_LENGTH"}
	full := strings.Repeat("tree line\n", 2000) // about 5,000 tokens
	lean := "role and protocol"
	got, err := b.FitSystem(llm.Request{}, func() (string, error) { return full, nil }, func() (string, error) { return lean, nil })
	if err != nil || got.Text != lean || got.Index != 1 {
		t.Errorf("FitSystem = %.20q (%d), %v; want the lean prompt", got.Text, got.Index, err)
	}
	_, err = b.FitSystem(llm.Request{}, func() (string, error) { return full, nil })
	if err == nil || !strings.Contains(err.Error(), "OLLAMA_CONTEXT_LENGTH") {
		t.Errorf("FitSystem with nothing that fits: %v", err)
	}
}

// TestFitSystemWantsRoomToWork: a prompt that fits a window but leaves
// less than MinRoom for the conversation gives way to a leaner one; when
// no candidate leaves that much, the leanest that fits is taken; with a
// large window the fullest is kept.
func TestFitSystemWantsRoomToWork(t *testing.T) {
	full := strings.Repeat("catalog line\n", 700) // about 2,300 tokens
	small := strings.Repeat("catalog line\n", 250)
	cands := []func() (string, error){func() (string, error) { return full, nil }, func() (string, error) { return small, nil }}
	for _, tc := range []struct {
		window, want int
	}{{4096, 1}, {8192, 1}, {12288, 0}, {32768, 0}, {0, 0}} {
		b := &Budget{Window: tc.window}
		got, err := b.FitSystem(llm.Request{}, cands...)
		if err != nil || got.Index != tc.want || got.Why == "" {
			t.Errorf("window %d: candidate %d (%q), %v; want %d", tc.window, got.Index, got.Why, err, tc.want)
		}
		if tc.window == 8192 && got.Room < MinRoom-1024 {
			t.Errorf("window 8192: the small prompt leaves %d tokens", got.Room)
		}
	}
}

// TestNeed: the window asked for leaves NeedRoom beside the prompt.
func TestNeed(t *testing.T) {
	for _, sys := range []string{"", strings.Repeat("catalog line\n", 700), strings.Repeat("catalog line\n", 5000)} {
		b := &Budget{}
		w := b.Need(sys, llm.Request{})
		b.Window = w
		if room := b.Room(sys, llm.Request{}); room < NeedRoom || w%1024 != 0 {
			t.Errorf("%d tokens of prompt: need %d leaves %d, want at least %d", EstimateTokens(sys), w, room, NeedRoom)
		}
		b.Window = w - 1024
		if room := b.Room(sys, llm.Request{}); room >= NeedRoom {
			t.Errorf("%d tokens of prompt: need %d is not the smallest (%d leaves %d)", EstimateTokens(sys), w, w-1024, room)
		}
	}
}
