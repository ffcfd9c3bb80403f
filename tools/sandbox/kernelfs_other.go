//go:build !linux

package sandbox

import "os"

// kernelFile is kernelPath's job here: /proc and /sys are Linux's.
func kernelFile(*os.File) bool { return false }
