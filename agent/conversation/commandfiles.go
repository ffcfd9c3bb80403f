package conversation

import (
	"fmt"
	"path/filepath"

	"github.com/agentcli/agent/tools/sandbox"
)

// ReadCommand reads the chat's custom command file name (review.md): the
// user's own (in the Builder's UserDir, commands/) when user is set,
// with the refusal of devices, FIFOs, kernel files and secrets; else the
// project's (.agent/commands, which a cloned repository writes) through
// the conversation's file sandbox. A file is read whole up to the read
// limit (files.read_limit), or not at all. The error names the file and
// says why.
func (c *Conversation) ReadCommand(user bool, name string) ([]byte, error) {
	limit := c.root.Options().MaxReadBytes
	var (
		data  []byte
		size  int64
		err   error
		shown string
	)
	if user {
		shown = filepath.Join(c.w.UserDir, "commands", name)
		data, size, err = sandbox.ReadUserText(shown, limit)
	} else {
		shown = filepath.Join(".agent", "commands", name)
		data, size, err = c.root.ReadCommand(name, limit)
	}
	if err == nil && size > int64(len(data)) {
		err = fmt.Errorf("it is over the read limit of %d bytes", limit)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", shown, err)
	}
	return data, nil
}
