package agent

import (
	"fmt"
	"strings"
)

// pathParams are the parameters that name the file or folder a call works
// on.
var pathParams = []string{"file_path", "path", "directory_path", "dir"}

// nestedInstructions returns the instructions files of the subfolders
// this turn's calls worked in, not given before, as text to follow the
// tool responses; "" when there are none or Agent.Instructions is nil.
func (a *Agent) nestedInstructions(results []CallResult) string {
	if a.Instructions == nil {
		return ""
	}
	var b strings.Builder
	for _, r := range results {
		for _, p := range r.Params {
			if !isPathParam(p.Name) || p.Value == "" {
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

func isPathParam(name string) bool {
	for _, p := range pathParams {
		if name == p {
			return true
		}
	}
	return false
}

func lastElem(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}
