// Package run is the face of a one-shot `agent run`, as agent/ui/chat is
// the chat's: it prints the loop's events as text, JSON or stream-json,
// shows waits for the model (a spinner on stderr) and a running command's
// output, asks approval questions on the terminal, reads the text piped
// beside a prompt, and words what the run changed. It prints nothing of
// its own accord: the command hands it the run's streams and events.
package run

import (
	"cmp"
	"context"
	"io"
	"os"
	"time"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/tools/sandbox"
	"github.com/agentcli/agent/tools/sandbox/backup"
)

// Streams are the run's standard streams and what is known of them.
type Streams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	// StdinTTY, StdoutTTY and StderrTTY say whether the streams are
	// terminals.
	StdinTTY, StdoutTTY, StderrTTY bool
	// OpenTTY opens the controlling terminal for reading and writing,
	// to ask a question there whatever the standard streams are; nil
	// when there is none.
	OpenTTY func() (io.ReadWriteCloser, error)
}

// NewTerminalAsker asks approval questions on a terminal: questions go
// to out, answers are read from in (the same terminal, see
// ApprovalTerminal); color allows coloured diffs.
func NewTerminalAsker(in io.Reader, out io.Writer, color bool) *TerminalAsker {
	return &TerminalAsker{in: in, out: out, color: color}
}

// ColorOn reports whether questions on the terminal may be coloured:
// stderr is a terminal and NO_COLOR is not set.
func ColorOn(s Streams) bool {
	_, noColor := os.LookupEnv("NO_COLOR")
	return s.StderrTTY && !noColor
}

// ShowWaits shows on stderr the waits for model m while p prints text
// output: it returns m wrapped to drive a spinner, and the spinner's stop.
// Other outputs show no waits: ok is false and m is returned as it is.
func ShowWaits(p Printer, s Streams, m llm.Model) (wrapped llm.Model, stop func(), ok bool) {
	tp, ok := p.(*textPrinter)
	if !ok {
		return m, func() {}, false
	}
	tp.spin = newSpinner(s, m.Name())
	return waitingModel{Model: m, spin: tp.spin}, tp.spin.stop, true
}

// ReadPiped reads the text piped beside a prompt argument to its end
// (readPiped), keeping at most 256 KiB cut at a line end; cut is how many
// bytes were left out. After notice (3 s when 0) without a byte it says
// on errOut that it waits; after timeout of silence it gives up.
func ReadPiped(ctx context.Context, in io.Reader, errOut io.Writer, notice, timeout time.Duration) (text string, cut int64, err error) {
	w := pipeWait{notice: cmp.Or(notice, stdinNotice), timeout: timeout, errOut: errOut}
	return readPiped(ctx, in, w, PipedLimit)
}

// SummaryOf is what the run of out changed in the project at root, from
// its calls and the project's backup manifest, since started.
func SummaryOf(out *agent.Outcome, root *sandbox.Root, started time.Time) Summary {
	return Summarize(out, backupEntries(root), started)
}

// backupEntries reads the project's backup manifest; a manifest that
// cannot be read leaves the summary to the calls' own reports.
func backupEntries(root *sandbox.Root) []backup.Entry {
	st, err := root.Backups()
	if err != nil {
		return nil
	}
	es, _ := st.Entries()
	return es
}
