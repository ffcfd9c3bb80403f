package main

import (
	"fmt"
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// prepareCache sets the page cache of the binary at path before a run.
// The resident size of a Go binary's text and data depends on it: a page
// fault maps the cached pages around the faulting one (fault-around, large
// folios), so the same process is larger when the whole file is cached
// than when only what earlier runs faulted in is.
//
//	drop     drop the file's pages: the run reads what it needs from the
//	         disk (a cold start: after a reboot, an update, a while)
//	faulted  leave the cache as the runs before left it (a warm start)
//	read     drop them, then read the whole file (the state after a copy)
func prepareCache(path, mode string) error {
	switch mode {
	case "faulted":
		return nil
	case "drop", "read":
	default:
		return fmt.Errorf("unknown cache mode %q", mode)
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	// Only clean pages can be dropped: a binary just written by the
	// linker has dirty ones until they are written back.
	if err := unix.Fdatasync(int(f.Fd())); err != nil {
		return err
	}
	if err := unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED); err != nil {
		return err
	}
	if mode == "read" {
		_, err = io.Copy(io.Discard, f)
	}
	return err
}
