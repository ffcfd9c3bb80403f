package llm

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestEvents(t *testing.T) {
	stream := ": OPENROUTER PROCESSING\r\n\r\n" +
		"data: {\"a\":1}\r\n\r\n" +
		"event: message_start\ndata:{\"b\":2}\n\n" +
		"id: 7\nretry: 100\n\n" + // no data: no event
		"data: line one\ndata: line two\n\n" +
		"event: ping\ndata: {}\n: a comment inside\n\n" +
		"data: [DONE]\n\n" +
		"data: {\"cut\": tru" // cut off: dropped
	type ev struct{ name, data string }
	var got []ev
	for e, err := range Events(strings.NewReader(stream)) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, ev{e.Name, string(e.Data)})
	}
	want := []ev{{"", `{"a":1}`}, {"message_start", `{"b":2}`}, {"", "line one\nline two"}, {"ping", "{}"}, {"", "[DONE]"}}
	if len(got) != len(want) {
		t.Fatalf("events %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("event %d = %q, want %q", i, got[i], want[i])
		}
	}
}

func TestEventsReadError(t *testing.T) {
	boom := errors.New("connection reset")
	r := io.MultiReader(strings.NewReader("data: 1\n\n"), iotest.ErrReader(boom))
	var n int
	var last error
	for _, err := range Events(r) {
		if err != nil {
			last = err
			break
		}
		n++
	}
	if n != 1 || !errors.Is(last, boom) {
		t.Errorf("%d events, then %v; want one, then the read error", n, last)
	}
}
