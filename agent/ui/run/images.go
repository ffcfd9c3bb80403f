package run

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/conversation"
	"github.com/agentcli/agent/agent/llm/imagefit"
	"github.com/agentcli/agent/tools/sandbox"
)

// ImageFlagHelp is the help of agent run's --image.
const ImageFlagHelp = "attach an image file (PNG, JPEG, GIF or WebP) to the prompt; repeat for several"

// AttachImages reads the files given with --image and attaches each to
// the prompt, fitted to the model. They are the person's own choice, so
// they may lie outside the project (the model's read_file still may
// not); a file whose name says it holds secrets is refused all the same.
// Paths are relative to the current folder, as any argument.
func AttachImages(ctx context.Context, conv *conversation.Conversation, paths []string) error {
	for _, p := range paths {
		if sandbox.IsSecretName(p) {
			return conversation.UsageErrorf("--image %s: the name says it holds secrets (keys, passwords), so it is not sent to the model", p)
		}
		data, err := readImageFile(p)
		if err != nil {
			return conversation.UsageErrorf("--image %s: %v", p, err)
		}
		source := p
		if filepath.IsAbs(p) {
			source = filepath.Base(p) // the model needs the name, not the person's folders
		}
		err = conv.AttachImage(ctx, data, source)
		switch {
		case errors.Is(err, agent.ErrNoImages):
			return conversation.UsageErrorf("--image %s: %v; choose a model that reads images with --model, or set images = true for it in the configuration if it does", p, err)
		case err != nil:
			return conversation.UsageErrorf("--image %s: %v", p, err)
		}
	}
	return nil
}

// readImageFile reads a regular file of at most imagefit.MaxFileBytes.
func readImageFile(p string) ([]byte, error) {
	fi, err := os.Stat(p)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, errors.New("no such file")
	case err != nil:
		return nil, err
	case !fi.Mode().IsRegular():
		return nil, errors.New("not a regular file")
	case fi.Size() > imagefit.MaxFileBytes:
		return nil, fmt.Errorf("over %d MiB, too large for an image to attach", imagefit.MaxFileBytes>>20)
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, imagefit.MaxFileBytes))
}
