package sandbox

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/agentcli/agent/tools"
)

func (rf *Refusal) Result() tools.Result { return tools.Errorf(rf.Code, "%s", rf.msg) }

// FileTarget resolves p for a file tool: inside the root, not a binary
// format nor a secret file (see typeRefusal), both as asked and after symlinks. A nil *refusal and nil error
// mean t is usable; t.info is nil when the file does not exist.
func (r *Root) FileTarget(p string) (Target, *Refusal, error) { return r.FileTargetFor(p, false) }

// FileTargetFor is fileTarget; with images, an image's name is no
// refusal (typeRefusalFor).
func (r *Root) FileTargetFor(p string, images bool) (Target, *Refusal, error) {
	if rf := checkPathText(p, "file_path"); rf != nil {
		return Target{Asked: p}, rf, nil
	}
	if trimmed := strings.TrimSpace(p); strings.HasSuffix(trimmed, "/") && strings.Trim(trimmed, "./") != "" {
		// The OS would take "a.txt/" as a folder; never as the file a.txt.
		return Target{Asked: p}, &Refusal{Code: tools.CodeSchemaInvalid, msg: fmt.Sprintf("file_path %s ends in \"/\", which names a folder; give the file's path without the trailing slash", trimmed)}, nil
	}
	t, err := r.Resolve(p)
	if err != nil {
		if rf, ok := AsRefusal(Target{Asked: p}, err); ok {
			return t, rf, nil
		}
		return t, nil, err
	}
	if t.Rel == "." {
		return t, &Refusal{Code: tools.CodeUnsupportedType, msg: "file_path names the project folder itself; give a file path such as README.md"}, nil
	}
	if t.Info != nil && t.Info.IsDir() {
		return t, &Refusal{Code: tools.CodeUnsupportedType, msg: fmt.Sprintf("%s is a folder, not a file; use list_directory to see its files", p)}, nil
	}
	// Both names count: a link named notes.md to id_rsa is still a key.
	for _, name := range []string{strings.TrimSpace(p), t.Rel} {
		if rf := r.typeRefusalFor(name, p, images); rf != nil {
			return t, rf, nil
		}
	}
	if s := r.LinkedSecret(t.Info); s != "" {
		return t, &Refusal{Code: tools.CodePolicyDenied, msg: fmt.Sprintf("%s is another name (a hard link) of %s, which usually holds secrets, so the file tools do not read, write or search it; work without it, or ask the user to allow it in their own configuration", p, s)}, nil
	}
	return t, nil, nil
}

// HumanSize formats a byte count for messages: 512 B, 3.4 KiB, 200.0 MiB.
func HumanSize(n int64) string {
	const unit = 1024
	if n < unit {
		return strconv.FormatInt(n, 10) + " B"
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

func Itoa(n int) string { return strconv.Itoa(n) }

func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
