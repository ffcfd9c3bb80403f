package fsedit

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/sandbox"
)

// MaxImageBytes is the largest image file read_file returns: the loop
// scales an image down to the model's limits, and a larger file is
// rarely a picture meant for it.
const MaxImageBytes = 32 << 20

// imageName reports whether the file, as asked or where it leads, has
// an image's name.
func imageName(t sandbox.Target) bool {
	return sandbox.IsImageExt(strings.ToLower(path.Ext(t.Rel))) || sandbox.IsImageExt(strings.ToLower(path.Ext(strings.TrimSpace(t.Asked))))
}

// sniffImage returns the MIME type of the image formats models read
// (PNG, JPEG, GIF, WebP) from the first bytes of f, or "": an image is
// known by its content, whatever its name.
func sniffImage(f io.ReaderAt) string {
	var b [12]byte
	n, _ := f.ReadAt(b[:], 0)
	head := b[:n]
	switch {
	case bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")):
		return "image/png"
	case bytes.HasPrefix(head, []byte("\xff\xd8\xff")):
		return "image/jpeg"
	case bytes.HasPrefix(head, []byte("GIF87a")), bytes.HasPrefix(head, []byte("GIF89a")):
		return "image/gif"
	case n == 12 && string(head[:4]) == "RIFF" && string(head[8:12]) == "WEBP":
		return "image/webp"
	}
	return ""
}

// readImage answers read_file for an image: the file's bytes as the
// result's Image, for the loop to send to a model that sees images (or
// to describe to one that does not), and its type and size as text. A
// line range means nothing for an image and is ignored.
func (s *Session) readImage(t sandbox.Target, f *os.File, fi fs.FileInfo, mime string) (tools.Result, error) {
	if mime == "" {
		// A name that promises an image over other content is a broken
		// file or a disguise: neither is read as text.
		return tools.Errorf(tools.CodeUnsupportedType, "%s has an image's name but is not a PNG, JPEG, GIF or WebP image; read_file reads text files and those images", t.Asked), nil
	}
	if fi.Size() > MaxImageBytes {
		return tools.Errorf(tools.CodeFileTooLarge, "%s is an image of %s, over the %s read_file takes for images", t.Asked, sandbox.HumanSize(fi.Size()), sandbox.HumanSize(MaxImageBytes)), nil
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxImageBytes+1))
	if err != nil {
		return tools.Result{}, fmt.Errorf("read %s: %w", t.Rel, err)
	}
	return tools.Result{
		Message: fmt.Sprintf("%s: %s image, %s", t.Rel, mime, sandbox.HumanSize(int64(len(data)))),
		Metadata: []tools.Attr{
			{Name: "size", Value: sandbox.Itoa(len(data))},
			{Name: "type", Value: mime},
		},
		Image: &tools.Image{MIME: mime, Data: data, Path: t.Rel},
	}, nil
}
