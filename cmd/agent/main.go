// Command agent is a terminal coding and content agent: it chats with a
// model that reads and edits the project's files through XML tool calls.
package main

import (
	"context"
	"io"
	"log"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	// The genai SDK writes stream errors to the standard logger as well as
	// returning them; the agent reports each failure once, in its own words.
	log.SetOutput(io.Discard)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := execute(ctx, newStreams(), os.Args[1:])
	stop()
	os.Exit(code)
}
