package llm

import (
	"bufio"
	"bytes"
	"io"
	"iter"
)

// Event is one server-sent event: its name (the "event:" field, "" when
// it has none) and its data (the "data:" lines, joined by newlines).
type Event struct {
	Name string
	Data []byte
}

// maxEventLine bounds one line of an event stream, as the SDKs the
// providers' clients replaced bounded it: far above any delta a model
// sends, and a server that never ends a line cannot take all memory.
const maxEventLine = 32 << 20

// Events reads the server-sent events of r as they arrive (the
// text/event-stream format of the WHATWG spec, as OpenAI, Anthropic and
// every compatible server send it). Comment lines (": keep-alive",
// OpenRouter's ": OPENROUTER PROCESSING") and fields other than event
// and data are skipped, and so are events without data. An event is
// complete at its blank line: one cut off by the end of the stream is
// dropped, and the sequence ends without an error. A read error ends it
// with that error.
func Events(r io.Reader) iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		sc := bufio.NewScanner(r)
		sc.Buffer(nil, maxEventLine)
		var ev Event
		hasData := false
		for sc.Scan() {
			line := sc.Bytes()
			if len(line) == 0 {
				if hasData && !yield(ev, nil) {
					return
				}
				ev, hasData = Event{}, false
				continue
			}
			name, value, _ := bytes.Cut(line, []byte(":"))
			value = bytes.TrimPrefix(value, []byte(" "))
			switch string(name) {
			case "event":
				ev.Name = string(value)
			case "data":
				if hasData {
					ev.Data = append(ev.Data, '\n')
				}
				ev.Data = append(ev.Data, value...)
				hasData = true
			}
		}
		if err := sc.Err(); err != nil {
			yield(Event{}, err)
		}
	}
}
