package sandbox

import (
	"fmt"
	"io"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentcli/agent/tools"
)

// Every text file of the project is editable: whether a file is text is
// decided by its content (no NUL byte anywhere, see lineCounter), not by
// an allowlist of extensions. Two rules by name remain, both cheap and
// both decided before a byte is read:
//
//   - isBinaryExt: formats that are binary by definition (images, archives,
//     compiled code, media), refused without reading them;
//   - secret files: files that usually hold keys and passwords, whose
//     content the model never sees unless the user allows it
//     (Options.AllowSecrets). Their names still show in listings.

// isBinaryExt reports extensions of formats that are never text (a
// switch, not a map: nothing to build at start-up).
func isBinaryExt(ext string) bool {
	switch ext {
	case ".png", ".jpg", ".jpeg", ".gif", ".webp", ".ico", ".bmp", ".tiff",
		".pdf", ".zip", ".gz", ".tgz", ".bz2", ".xz", ".zst", ".7z", ".rar", ".tar",
		".jar", ".class", ".exe", ".dll", ".so", ".dylib", ".o", ".a", ".wasm", ".pyc",
		".mp3", ".mp4", ".wav", ".ogg", ".flac", ".mov", ".avi", ".mkv", ".webm",
		".woff", ".woff2", ".ttf", ".otf", ".sqlite", ".db":
		return true
	}
	return false
}

// secretNames are base names (compared case-insensitively) of files that
// usually hold secrets; secretPatterns are path.Match patterns of them;
// secretPaths are the last two components of a path (a name that is
// only secret in its tool's folder: .aws/credentials, not credentials).
var (
	secretNames = []string{
		".env", ".envrc", ".netrc", "_netrc", ".pgpass", ".git-credentials",
		"credentials.json", ".htpasswd", ".pypirc", ".npmrc",
	}
	secretPatterns = []string{
		".env.*", "*.env", "*.pem", "*.key", "*.p12", "*.pfx", "*.keystore", "*.jks",
		"id_rsa*", "id_dsa*", "id_ecdsa*", "id_ed25519*",
		"*.tfvars", "*.tfvars.json", "service-account*.json", "secrets.y*ml",
	}
	secretPaths = []string{".aws/credentials", ".docker/config.json"}
	// notSecret are the conventional example and template files next to
	// a secret one: they are meant to be shared.
	notSecretSuffixes = []string{".example", ".sample", ".template", ".dist", ".pub"}
)

// IsSecretName reports whether a file's name says it usually holds
// secrets (.env, *.pem, id_rsa, .aws/credentials): what the file tools
// refuse, for other readers of files (agent run --image).
func IsSecretName(p string) bool {
	rel := filepath.ToSlash(p)
	base := strings.ToLower(path.Base(rel))
	for _, s := range notSecretSuffixes {
		if strings.HasSuffix(base, s) {
			return false
		}
	}
	if slices.Contains(secretNames, base) {
		return true
	}
	if dir := path.Base(path.Dir(rel)); slices.Contains(secretPaths, strings.ToLower(dir)+"/"+base) {
		return true
	}
	for _, p := range secretPatterns {
		if ok, _ := path.Match(p, base); ok {
			return true
		}
	}
	return false
}

// secretAllowed reports whether the user's own configuration lets the
// tools at the secret file rel (Options.AllowSecrets).
func (r *Root) secretAllowed(rel string) bool {
	for _, g := range r.opts.AllowSecrets {
		g = strings.TrimPrefix(strings.TrimSpace(g), "./")
		if ok, _ := path.Match(g, rel); ok {
			return true
		}
		if ok, _ := path.Match(g, path.Base(rel)); ok {
			return true
		}
	}
	return false
}

// TypeRefusal is the verdict of the name rules on the file rel (as the
// model asked for it: asked), or nil when its content decides.
func (r *Root) TypeRefusal(rel, asked string) *Refusal { return r.typeRefusalFor(rel, asked, false) }

// typeRefusalFor is typeRefusal; with images, an image's name (.png,
// .jpg, .jpeg, .gif, .webp) is left to the content too: read_file
// returns images.
func (r *Root) typeRefusalFor(rel, asked string, images bool) *Refusal {
	if ext := strings.ToLower(path.Ext(rel)); isBinaryExt(ext) && !(images && IsImageExt(ext)) {
		return &Refusal{Code: tools.CodeUnsupportedType, msg: fmt.Sprintf("%s is a %s file, which is binary; the file tools read and write text files only", asked, strings.ToLower(path.Ext(rel)))}
	}
	if IsSecretName(rel) && !r.secretAllowed(rel) {
		return &Refusal{Code: tools.CodePolicyDenied, msg: fmt.Sprintf("%s usually holds secrets (keys, passwords), so the file tools do not read, write or search it; work without it, or ask the user to allow it in their own configuration", asked)}
	}
	return nil
}

// BinaryResult answers a write to a file whose content holds a NUL byte.
func BinaryResult(asked string) tools.Result {
	return tools.Errorf(tools.CodeUnsupportedType, "%s holds NUL bytes, so it is binary, not text; the file tools do not change it", asked)
}

// HasBOM reports whether the content of f starts with a UTF-8 BOM.
func HasBOM(f io.ReaderAt) bool {
	var b [3]byte
	n, _ := f.ReadAt(b[:], 0)
	return string(b[:n]) == UTF8BOM
}

// utf8BOM is the byte-order mark some editors put at the start of UTF-8
// files. The tools keep it: read shows the text without it (and says it
// is there), writes put it back.
const UTF8BOM = "\ufeff"

// IsImageExt reports the extensions of the image formats read_file
// returns as images; the content decides all the same (sniffImage).
func IsImageExt(ext string) bool {
	switch ext {
	case ".png", ".jpg", ".jpeg", ".gif", ".webp":
		return true
	}
	return false
}
