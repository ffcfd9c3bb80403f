package agent

import (
	"fmt"
	"slices"
	"strings"
)

// nestedInstructions returns the instructions files of the subfolders
// this turn's calls worked in, not given before, as text to follow the
// tool responses; "" when there are none or Agent.Instructions is nil.
func (a *Agent) nestedInstructions(results []CallResult) string {
	if a.Instructions == nil {
		return ""
	}
	var b strings.Builder
	for _, r := range results {
		t, ok := a.Tools.Lookup(r.Tool)
		if !ok {
			continue
		}
		// The tool says which of its parameters are project paths.
		paths := t.Definition().PathParams()
		for _, p := range r.Params {
			if !slices.Contains(paths, p.Name) || p.Value == "" {
				continue
			}
			name, text := a.Instructions(p.Value)
			if text == "" {
				continue
			}
			dir := strings.TrimSuffix(name, "/"+lastElem(name))
			fmt.Fprintf(&b, "\n\n[Instructions from %s, for the files in %s/: follow them there.]\n\n%s", name, dir, text)
		}
	}
	return b.String()
}

func lastElem(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}
