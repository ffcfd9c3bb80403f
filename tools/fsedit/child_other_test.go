//go:build !unix

package fsedit

import "os"

// The crash and permission tests need Unix; their children never run here.
func crashChild() { os.Exit(2) }
func permChild()  { os.Exit(2) }
