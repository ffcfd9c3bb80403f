// Command agent is a terminal coding and content agent: it chats with a
// model that reads and edits the project's files through XML tool calls.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := execute(ctx, newStreams(), os.Args[1:])
	stop()
	os.Exit(code)
}
