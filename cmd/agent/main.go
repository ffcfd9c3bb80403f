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
	"time"

	"github.com/agentcli/agent/agent/startup"
)

// exitGrace is how long the agent may take to wind down after Ctrl-C or
// SIGTERM (a cancelled write removes its temp file) before it exits anyway.
const exitGrace = 10 * time.Second

func main() {
	startup.DelayFirstGC()
	// The genai SDK writes stream errors to the standard logger as well as
	// returning them; the agent reports each failure once, in its own words.
	log.SetOutput(io.Discard)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		// The first signal cancels the work; a second one gets the
		// default action (the process ends at once), and a process stuck
		// in a system call still ends after the grace period.
		stop()
		time.Sleep(exitGrace)
		os.Exit(130)
	}()
	code := execute(ctx, newStreams(), os.Args[1:])
	stop()
	os.Exit(code)
}
