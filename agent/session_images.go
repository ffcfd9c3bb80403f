package agent

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/llm/imagefit"
)

// A session's images are kept beside its log, once each, in
// .agent/sessions/<id>.images/<sha256>.<ext>; the log's message lines
// name them by their digest. An image a conversation sends in every
// request, or that two turns attach, is one file.

// imagesDir is the folder of the session's images.
func (s *Session) imagesDir() string { return filepath.Join(s.path, s.ID+".images") }

// imageExt is the file extension of an image type.
func imageExt(mime string) string {
	switch mime {
	case "image/png":
		return ".png"
	case "image/jpeg":
		return ".jpg"
	case "image/gif":
		return ".gif"
	case "image/webp":
		return ".webp"
	}
	return ""
}

// imageFile is where an image is stored, or "" when its reference is not
// one the agent writes (a log from elsewhere may say anything).
func (s *Session) imageFile(img llm.Image) string {
	ext := imageExt(img.MIME)
	if b, err := hex.DecodeString(img.SHA256); err != nil || len(b) != sha256.Size || ext == "" {
		return ""
	}
	return filepath.Join(s.imagesDir(), img.SHA256+ext)
}

// saveImages stores the images not stored yet, each written whole under
// a temporary name and then renamed, before the log line that names them.
func (s *Session) saveImages(imgs []llm.Image) error {
	if len(imgs) == 0 {
		return nil
	}
	dir := s.imagesDir()
	if fi, err := os.Lstat(dir); err == nil && !fi.IsDir() {
		return fmt.Errorf("%s is not a folder; the agent keeps a session's images only in a real folder inside the project, so it does not write there: remove it", dir)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create session images folder: %w", err)
	}
	for _, img := range imgs {
		path := s.imageFile(img)
		if path == "" {
			return fmt.Errorf("image %q has no valid digest or type", img.Source)
		}
		if fi, err := os.Lstat(path); err == nil && fi.Mode().IsRegular() && fi.Size() == int64(len(img.Data)) {
			continue // stored by an earlier message
		}
		if err := writeImage(dir, path, img.Data); err != nil {
			return fmt.Errorf("save session image: %w", err)
		}
	}
	return nil
}

func writeImage(dir, path string, data []byte) error {
	tmp, err := os.CreateTemp(dir, ".image-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// errImageChanged reports a stored image whose bytes are not the ones
// its digest names.
var errImageChanged = errors.New("its file changed")

// loadImages restores the bytes of the images a log line names. An image
// whose file is missing, is not a regular file, or does not match its
// digest is left out, with a line in the message saying so: the
// conversation goes on without it.
func (s *Session) loadImages(m *llm.Message) {
	kept := m.Images[:0]
	for _, img := range m.Images {
		data, err := s.readImage(img)
		if err != nil {
			m.Text += fmt.Sprintf("\n[Image %s could not be restored with the session (%v).]", img.Source, err)
			continue
		}
		img.Data = data
		kept = append(kept, img)
	}
	m.Images = kept
	if len(kept) == 0 {
		m.Images = nil
	}
}

func (s *Session) readImage(img llm.Image) ([]byte, error) {
	path := s.imageFile(img)
	if path == "" {
		return nil, errors.New("the log names it wrongly")
	}
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, errors.New("its file is missing")
	case err != nil:
		return nil, err
	case !fi.Mode().IsRegular():
		return nil, errors.New("its file is not a regular file")
	case fi.Size() > imagefit.MaxFileBytes:
		return nil, errImageChanged
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, imagefit.MaxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != img.SHA256 {
		return nil, errImageChanged
	}
	return data, nil
}
