package main

import (
	"fmt"
	"path/filepath"

	"github.com/agentcli/agent/tools/fsedit"
)

// commandReader reads the chat's custom command files: the project's
// (.agent/commands, which a cloned repository writes) through the file
// tools' sandbox, the user's own (userDir/commands) with the same
// refusal of devices, FIFOs, kernel files and secrets. A file is read
// whole up to the read limit (files.read_limit), or not at all. The
// error names the file and says why.
func commandReader(files *fsedit.Root, userDir string) func(user bool, name string) ([]byte, error) {
	limit := files.Options().MaxReadBytes
	return func(user bool, name string) ([]byte, error) {
		var (
			data  []byte
			size  int64
			err   error
			shown string
		)
		if user {
			shown = filepath.Join(userDir, "commands", name)
			data, size, err = fsedit.ReadUserText(shown, limit)
		} else {
			shown = filepath.Join(".agent", "commands", name)
			data, size, err = files.ReadCommand(name, limit)
		}
		if err == nil && size > int64(len(data)) {
			err = fmt.Errorf("it is over the read limit of %d bytes", limit)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", safeText(shown), err)
		}
		return data, nil
	}
}
