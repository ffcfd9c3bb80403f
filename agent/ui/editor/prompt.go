package editor

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	acp "github.com/coder/acp-go-sdk"

	"github.com/agentcli/agent/agent"
)

// promptText is the message a prompt's content makes: its text, the
// project files it links read through the file tools (so that they
// count as read, as the chat's @path does), the files it embeds (the
// editor's text of them), and its images attached to the message.
func (s *session) promptText(ctx context.Context, blocks []acp.ContentBlock) (string, error) {
	var parts []string
	for _, b := range blocks {
		part, err := s.block(ctx, b)
		if err != nil {
			return "", err
		}
		if part != "" {
			parts = append(parts, part)
		}
	}
	return strings.Join(parts, "\n\n"), nil
}

// block is the text one content block adds to the message.
func (s *session) block(ctx context.Context, b acp.ContentBlock) (string, error) {
	switch {
	case b.Text != nil:
		return b.Text.Text, nil
	case b.ResourceLink != nil:
		return s.link(ctx, b.ResourceLink.Uri, b.ResourceLink.Name), nil
	case b.Resource != nil:
		return s.embedded(ctx, b.Resource.Resource)
	case b.Image != nil:
		source := "an image from the editor"
		if b.Image.Uri != nil {
			source = *b.Image.Uri
		}
		return "", s.image(ctx, b.Image.Data, source)
	case b.Audio != nil:
		return "", invalidParams("audio is not offered: the prompt capabilities say so")
	}
	return "", invalidParams("a content block of an unknown type")
}

// link is a resource link: a project file read through read_file, or
// the link as text.
func (s *session) link(ctx context.Context, uri, name string) string {
	rel, ok := s.projectPath(uri)
	if !ok {
		return fmt.Sprintf("[%s](%s)", name, uri)
	}
	text, err := s.conv.Attach(ctx, rel)
	if err != nil {
		return fmt.Sprintf("@%s (not attached: %v)", rel, err)
	}
	return text
}

// embedded is an embedded resource: a file's text as the editor has it,
// or an image.
func (s *session) embedded(ctx context.Context, r acp.EmbeddedResourceResource) (string, error) {
	switch {
	case r.TextResourceContents != nil:
		t := r.TextResourceContents
		name := t.Uri
		if rel, ok := s.projectPath(t.Uri); ok {
			name = rel
		}
		return fmt.Sprintf("<file path=%q>\n%s\n</file>", name, t.Text), nil
	case r.BlobResourceContents != nil:
		b := r.BlobResourceContents
		if b.MimeType != nil && strings.HasPrefix(*b.MimeType, "image/") {
			return "", s.image(ctx, b.Blob, b.Uri)
		}
		return fmt.Sprintf("(%s is binary: not included)", b.Uri), nil
	}
	return "", invalidParams("an embedded resource with neither text nor blob")
}

// image attaches a base64 image to the message.
func (s *session) image(ctx context.Context, data, source string) error {
	raw, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		return invalidParams("an image whose data is not base64: " + err.Error())
	}
	if err := s.conv.AttachImage(ctx, raw, source); err != nil {
		if errors.Is(err, agent.ErrNoImages) {
			return invalidParams(err.Error())
		}
		return invalidParams(fmt.Sprintf("image %s: %v", source, err))
	}
	return nil
}

// projectPath is the project-relative path of a file:// URI inside the
// project.
func (s *session) projectPath(uri string) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return "", false
	}
	rel, err := filepath.Rel(s.dir, filepath.Clean(u.Path))
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

func invalidParams(why string) error {
	return acp.NewInvalidParams(map[string]any{"error": why})
}
