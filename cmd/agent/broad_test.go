package main

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// fakeTTY is a terminal whose answers are given and whose output is kept.
type fakeTTY struct {
	io.Reader
	bytes.Buffer
}

func (t *fakeTTY) Write(p []byte) (int, error) { return t.Buffer.Write(p) }
func (t *fakeTTY) Read(p []byte) (int, error)  { return t.Reader.Read(p) }
func (t *fakeTTY) Close() error                { return nil }

func TestBroadFolderIsConfirmedOnATerminal(t *testing.T) {
	home := t.TempDir()
	for _, tc := range []struct {
		answer string
		ok     bool
	}{{"y\n", true}, {"yes\n", true}, {"n\n", false}, {"\n", false}, {"", false}} {
		tty := &fakeTTY{Reader: strings.NewReader(tc.answer)}
		f := newFactory(&streams{openTTY: func() (io.ReadWriteCloser, error) { return tty, nil }})
		f.env = map[string]string{"HOME": home}
		err := f.confirmBroadFolder(home)
		if (err == nil) != tc.ok {
			t.Errorf("answer %q: err %v, want ok=%v", tc.answer, err, tc.ok)
		}
		if !strings.Contains(tty.String(), "your home folder") || !strings.Contains(tty.String(), "[y/N]") {
			t.Errorf("question = %q", tty.String())
		}
		if err != nil && (exitCode(err) != exitUsage || !strings.Contains(err.Error(), "--dir")) {
			t.Errorf("refusal %v exits %d", err, exitCode(err))
		}
	}
	f := newFactory(&streams{})
	f.env = map[string]string{"HOME": home}
	if err := f.confirmBroadFolder(t.TempDir()); err != nil {
		t.Errorf("a project folder was questioned: %v", err)
	}
}
