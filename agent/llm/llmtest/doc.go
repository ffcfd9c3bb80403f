// Package llmtest helps test code that talks to models: a scripted
// in-process model (script.go), and fake provider servers that speak the
// real wire protocols on 127.0.0.1 so that the providers' clients (our
// own, and Gemini's SDK) can be driven end to end with no network.
//
// # Fake servers
//
// NewGeminiServer, NewOpenAIServer and NewAnthropicServer start a server
// that answers each generation request with the next scripted Answer and
// records every request:
//
//	s := llmtest.NewGeminiServer(t,
//		llmtest.Fail(429, "Retry-After", "1"),       // rate limited once
//		llmtest.Say(`<tool_call name="read_file">`, `<file_path>README.md</file_path></tool_call>`),
//		llmtest.Say("Done."),
//	)
//	// point the client at s.URL, or the agent at it with s.Env()
//	...
//	reqs := s.Requests()
//	if !strings.Contains(reqs[2].LastUser(), "<tool_response") { ... }
//
// Gemini serves POST /v1beta/models/{model}:generateContent and
// :streamGenerateContent?alt=sse; OpenAI serves POST /v1/chat/completions
// (s.URL ends in /v1); Anthropic serves POST /v1/messages. Streams are
// server-sent events framed as each provider frames them, with the finish
// reason and usage at the end.
//
// The local servers behave like the real ones where the agent depends on
// it. NewOllamaServer speaks Ollama's native POST /api/chat (streamed as
// one JSON object a line) beside /v1/chat/completions, with /api/show,
// /api/ps and /api/tags; NewLlamaCppServer and NewLMStudioServer speak the
// OpenAI-compatible API with llama.cpp's /props and LM Studio's
// /api/v0/models. Each serves a request with a window (Ollama's num_ctx,
// else 4,096 tokens; llama.cpp's -c; LM Studio's loaded context), counts
// the prompt as the agent's budget does (llm.EstimateRequest), and when
// the prompt is larger drops its beginning, the system prompt first: the
// request records it (Request.Window, Tokens, Lost) and the answer is
// LostAnswer instead of the script, as a model without its instructions
// would reply.
//
// An Answer streams its Chunks, or fails: an HTTP error status with the
// provider's error body and any headers (Fail), a Fault after the chunks
// (TCP reset, malformed event, clean cut without an end, in-stream error
// event, a stall on an open connection), a Delay before answering or a
// ChunkDelay after each chunk (a slow or stalled server), or a verbatim Body
// (Raw; HTMLPage is a proxy's error page, GeminiKeyInvalid Gemini's real
// answer to a wrong key). Where servers of one protocol differ, an answer
// can play the others' ways: keep-alive comments between events
// (WithKeepAlive), no end marker (WithoutEndMarker: no [DONE], no
// message_stop), OpenAI thoughts in "reasoning" rather than
// "reasoning_content" (WithReasoningField). Waits end when the client
// goes away (Gone then receives) or the test ends, so no test hangs on
// them.
//
// Each Request is kept with its raw body and headers and with the neutral
// fields every protocol has (Model, System, Messages, Stop, MaxTokens,
// Stream). A request to an unknown path, a body the real API would reject
// (e.g. too many stop sequences) or a request beyond the script fails the
// test.
//
// RunModelTests is a conformance suite that each provider package runs
// against its own fake server: streaming, what is sent, retries and
// their waits, drops, silences, error pages, cancellation.
package llmtest
