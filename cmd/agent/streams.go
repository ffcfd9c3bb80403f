package main

import (
	"io"
	"os"

	"golang.org/x/term"

	"github.com/agentcli/agent/agent/ui/run"
)

// streams are the command's standard streams, injected so that commands
// never write to os.Stdout directly and tests can capture everything.
type streams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	// stdinTTY, stdoutTTY and stderrTTY say whether the streams are
	// terminals.
	stdinTTY, stdoutTTY, stderrTTY bool
	// openTTY opens the controlling terminal for reading and writing,
	// to ask a question there whatever the standard streams are; nil
	// when there is none.
	openTTY func() (io.ReadWriteCloser, error)
}

func newStreams() *streams {
	return &streams{
		In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr,
		stdinTTY:  term.IsTerminal(int(os.Stdin.Fd())),
		stdoutTTY: term.IsTerminal(int(os.Stdout.Fd())),
		stderrTTY: term.IsTerminal(int(os.Stderr.Fd())),
		openTTY:   func() (io.ReadWriteCloser, error) { return os.OpenFile("/dev/tty", os.O_RDWR, 0) },
	}
}

// term is s as agent run's face (package run, agent/ui/run) takes it.
func (s *streams) term() run.Streams {
	return run.Streams{In: s.In, Out: s.Out, ErrOut: s.ErrOut,
		StdinTTY: s.stdinTTY, StdoutTTY: s.stdoutTTY, StderrTTY: s.stderrTTY, OpenTTY: s.openTTY}
}
