package run

import (
	"fmt"
	"io"

	"github.com/agentcli/agent/agent/conversation"
)

// MaxStdin bounds what is read from standard input as a whole prompt or
// reply: a pipe from /dev/zero must not eat the memory.
const MaxStdin = 16 << 20

// ReadPrompt reads the whole prompt from standard input (in), at most
// MaxStdin bytes: more is bad usage.
func ReadPrompt(in io.Reader) (string, error) {
	b, err := io.ReadAll(io.LimitReader(in, MaxStdin+1))
	if err == nil && len(b) > MaxStdin {
		return "", conversation.UsageErrorf("the prompt on standard input is over %d MiB; give the model a file to read instead", MaxStdin>>20)
	}
	if err != nil {
		return "", fmt.Errorf("read prompt from standard input: %w", err)
	}
	return string(b), nil
}
