//go:build !linux

package fsedit

import "os"

// kernelFile is kernelPath's job here: /proc and /sys are Linux's.
func kernelFile(*os.File) bool { return false }
