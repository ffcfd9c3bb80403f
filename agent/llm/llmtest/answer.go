package llmtest

import (
	"net/http"
	"time"

	"github.com/agentcli/agent/agent/llm"
)

// Fault is how a scripted answer goes wrong after its chunks.
type Fault int

// The faults a fake server can play.
const (
	// FaultNone ends the stream properly: finish reason, usage, end marker.
	FaultNone Fault = iota
	// FaultReset resets the TCP connection (RST) after the chunks.
	FaultReset
	// FaultMalformed sends an event whose data is not JSON, then ends.
	FaultMalformed
	// FaultCut closes the stream cleanly but early: no finish reason and no
	// end marker ([DONE], message_stop).
	FaultCut
	// FaultErrorEvent sends the protocol's in-stream error event with the
	// answer's Status and Message (e.g. Anthropic's overloaded_error).
	FaultErrorEvent
	// FaultStall sends nothing more and keeps the connection open until
	// the client gives up: with no chunks, a server that sent its headers
	// and hung.
	FaultStall
)

// Answer is one scripted answer of a fake server, used for one request.
// The zero Finish is "stop". Build answers with Say, Fail, Raw and the
// With... methods, or fill the fields directly.
type Answer struct {
	// Chunks are the text deltas, one stream event each. A request that
	// does not stream gets them joined.
	Chunks []string
	// Thoughts are thinking deltas sent before the text, each as the
	// provider sends thoughts (a thinking block, a thought part, a
	// reasoning_content delta).
	Thoughts []string
	// Finish is the neutral finish reason: "stop" (default), "length" or
	// "stop_sequence"; each server words it as its provider does.
	Finish string
	// Usage is reported at the end; nil reports 10 input tokens and one
	// output token per chunk.
	Usage *llm.Usage

	// Status, when not 0 or 200, makes this an HTTP error answer with the
	// provider's error body carrying Message. With FaultErrorEvent the
	// status goes into the in-stream error event instead.
	Status  int
	Message string
	// Header is added to the answer's headers (e.g. Retry-After).
	Header http.Header
	// Body, when set, is sent verbatim instead of the protocol's body.
	Body string

	// Delay is waited before anything is sent; ChunkDelay after each chunk
	// (so the first chunk comes at once and the stream then stalls). Both
	// end early when the client goes away or the server closes.
	Delay      time.Duration
	ChunkDelay time.Duration
	// Hold, when set, holds the answer back until it is closed (or the
	// client goes away, or the server closes): a test looks at what the
	// agent shows while it waits, by the order of events, not by time.
	Hold <-chan struct{}
	// Fault is what goes wrong after the chunks.
	Fault Fault

	// Where the servers of one protocol differ (OpenAI's and Anthropic's
	// server-sent events only):
	//
	// KeepAlive sends a comment line before the first event and after
	// each chunk, as OpenRouter (": OPENROUTER PROCESSING") and proxies
	// do to keep a connection open while a model thinks.
	KeepAlive bool
	// NoEndMarker leaves out the end marker after the finish reason and
	// usage: OpenAI's "data: [DONE]" (some compatible servers never send
	// it), Anthropic's message_stop.
	NoEndMarker bool
	// ReasoningField names the delta field that carries the thoughts on
	// the OpenAI protocol: "reasoning_content" (DeepSeek, vLLM,
	// llama.cpp; the default) or "reasoning" (OpenRouter, Ollama).
	ReasoningField string
}

// Say is an answer that streams chunks and ends normally.
func Say(chunks ...string) Answer { return Answer{Chunks: chunks} }

// Fail is an HTTP error answer with the given status and header pairs
// ("Retry-After", "2", ...).
func Fail(status int, headerPairs ...string) Answer {
	a := Answer{Status: status, Message: http.StatusText(status)}
	for i := 0; i+1 < len(headerPairs); i += 2 {
		if a.Header == nil {
			a.Header = http.Header{}
		}
		a.Header.Add(headerPairs[i], headerPairs[i+1])
	}
	return a
}

// Raw is an answer whose body is sent verbatim with the given status and
// the content type of an event stream (200) or JSON (other statuses).
func Raw(status int, body string) Answer { return Answer{Status: status, Body: body} }

// HTMLPage is an error answer that is a web page rather than the API's
// error body, as a proxy or load balancer in front of the API sends it.
func HTMLPage(status int, title string) Answer {
	a := Raw(status, "<!DOCTYPE html>\n<html>\n<head><title>"+title+"</title></head>\n"+
		"<body>\n<center><h1>"+title+"</h1></center>\n<hr><center>nginx</center>\n</body>\n</html>\n")
	a.Header = http.Header{"Content-Type": {"text/html; charset=utf-8"}}
	return a
}

// WithFault returns a copy of a that plays f after its chunks.
func (a Answer) WithFault(f Fault) Answer { a.Fault = f; return a }

// WithFinish returns a copy of a with the finish reason set.
func (a Answer) WithFinish(reason string) Answer { a.Finish = reason; return a }

// WithUsage returns a copy of a that reports these token counts.
func (a Answer) WithUsage(in, out int) Answer {
	a.Usage = &llm.Usage{InputTokens: in, OutputTokens: out}
	return a
}

// WithThoughts returns a copy of a that streams these thoughts first.
func (a Answer) WithThoughts(thoughts ...string) Answer { a.Thoughts = thoughts; return a }

// WithCache returns a copy of a whose usage reports cache reads and
// writes (and keeps its other counts).
func (a Answer) WithCache(read, write int) Answer {
	u := a.usage()
	u.CachedTokens, u.CacheWriteTokens = read, write
	a.Usage = &u
	return a
}

// WithKeepAlive returns a copy of a that sends keep-alive comments
// between its events (KeepAlive).
func (a Answer) WithKeepAlive() Answer { a.KeepAlive = true; return a }

// WithoutEndMarker returns a copy of a whose stream ends after its
// finish reason and usage, without the end marker (NoEndMarker).
func (a Answer) WithoutEndMarker() Answer { a.NoEndMarker = true; return a }

// WithReasoningField returns a copy of a that sends its thoughts in the
// named delta field (ReasoningField).
func (a Answer) WithReasoningField(name string) Answer { a.ReasoningField = name; return a }

// WithDelay returns a copy of a that waits d before answering.
func (a Answer) WithDelay(d time.Duration) Answer { a.Delay = d; return a }

// WithHold returns a copy of a held back until hold is closed.
func (a Answer) WithHold(hold <-chan struct{}) Answer { a.Hold = hold; return a }

// WithChunkDelay returns a copy of a that waits d after each chunk.
func (a Answer) WithChunkDelay(d time.Duration) Answer { a.ChunkDelay = d; return a }

func (a Answer) usage() llm.Usage {
	if a.Usage != nil {
		return *a.Usage
	}
	return llm.Usage{InputTokens: 10, OutputTokens: len(a.Chunks)}
}

func (a Answer) isError() bool {
	return a.Status != 0 && a.Status != http.StatusOK && a.Fault != FaultErrorEvent
}

func (a Answer) finish() string {
	if a.Finish == "" {
		return "stop"
	}
	return a.Finish
}

func (a Answer) text() string {
	s := ""
	for _, c := range a.Chunks {
		s += c
	}
	return s
}
