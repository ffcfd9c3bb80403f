package sandbox

import (
	"fmt"
	"strings"

	"github.com/agentcli/agent/internal/termtext"
	"github.com/agentcli/agent/tools"
)

// maxNameBytes is the longest file or folder name the common file systems
// take (ext4, APFS, NTFS: 255 bytes or units). A longer one is the
// model's slip, answered before the OS fails with "file name too long".
const maxNameBytes = 255

// checkPathText refuses a path whose text no real project file needs, as
// TOOL_SCHEMA_INVALID with a hint: control characters and the characters
// that hide what a name is (termtext.Hidden: bidi marks, zero-width
// characters, the soft hyphen), < and > (markup that leaked into the
// value), a home folder written as ~ or $HOME (the tools never expand
// them: a folder called "~" would be made), and a name over 255 bytes.
// param names the parameter in the message.
func checkPathText(p, param string) *Refusal {
	t := strings.TrimSpace(p)
	bad := func(format string, args ...any) *Refusal {
		return &Refusal{Code: tools.CodeSchemaInvalid, msg: fmt.Sprintf(format, args...)}
	}
	if strings.ContainsFunc(t, func(r rune) bool { return r < 0x20 || r == 0x7f || termtext.Hidden(r) }) {
		return bad("%s must not contain control characters or invisible ones (got %q); give the plain relative path", param, t)
	}
	if strings.ContainsAny(t, "<>") {
		return bad("%s must not contain < or > (got %q); give only the path, without markup", param, t)
	}
	if t == "~" || strings.HasPrefix(t, "~/") || strings.HasPrefix(t, "$HOME") || strings.HasPrefix(t, "${HOME}") {
		return bad("%s %q names the home folder, which the file tools cannot reach; give a path relative to the project root", param, t)
	}
	for _, c := range strings.Split(strings.ReplaceAll(t, "\\", "/"), "/") {
		if len(c) > maxNameBytes {
			return bad("%s has a name of %d bytes (%q...); names are at most %d bytes: choose a shorter one", param, len(c), termtext.RunePrefix(c, 40), maxNameBytes)
		}
	}
	return nil
}
