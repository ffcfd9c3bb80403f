package main

import (
	"bufio"
	"errors"
	"fmt"
	"strings"

	"github.com/agentcli/agent/agent/app"
	"github.com/agentcli/agent/agent/ui/run"
)

// broadFolder names root when it is the home folder or / (see
// app.BroadFolder); "" otherwise.
func (f *factory) broadFolder(root string) string {
	return app.BroadFolder(root, f.environ()["HOME"])
}

// confirmBroadFolder asks on the terminal before working in the home
// folder or /, reached by default (an explicit --dir is a choice made).
// With no terminal it refuses, naming --dir.
func (f *factory) confirmBroadFolder(root string) error {
	what := f.broadFolder(root)
	if what == "" {
		return nil
	}
	in, out, closeTTY := run.ApprovalTerminal(f.io.term())
	defer closeTTY()
	if in == nil {
		return usageErrorf("%s is %s: everything readable there would be open to the model; run in a project folder, or name the folder with --dir to mean it", root, what)
	}
	fmt.Fprintf(out, "agent: %s is %s: everything readable there is open to the model. Work here? [y/N] ", safeText(root), what)
	line, err := bufio.NewReader(in).ReadString('\n')
	if err != nil && line == "" {
		return exitError{code: exitUsage, err: errors.New("not confirmed; run in a project folder or pass --dir")}
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return nil
	}
	return exitError{code: exitUsage, err: errors.New("not confirmed; run in a project folder or pass --dir")}
}

// workFolder is the project folder for --dir value dir ("" is the
// current folder, absolute). Working in the home folder or / without
// naming it with --dir asks first: everything readable there would be
// open to the model.
func (f *factory) workFolder(dir string) (string, error) {
	root, err := projectFolder(dir)
	if err != nil {
		return "", err
	}
	if dir == "" {
		if err := f.confirmBroadFolder(root); err != nil {
			return "", err
		}
	}
	return root, nil
}
