//go:build !unix

package sandbox

import "io/fs"

func owner(fs.FileInfo) (uid, gid int, ok bool) { return 0, 0, false }

// links cannot tell here: one name.
func links(fs.FileInfo) uint64 { return 1 }

func fileID(fs.FileInfo) (id [2]uint64, ok bool) { return id, false }

// processAlive cannot tell here, so leftover temp files are kept.
func processAlive(int) bool { return true }

func writableByUs(fs.FileInfo) bool { return true }

// oNoFollow is not known here; the Lstat and SameFile checks remain.
const oNoFollow = 0
