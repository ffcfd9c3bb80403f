//go:build !unix

package backup

// lock is a no-op where flock is not available: in-process callers are
// still serialised by the Store's own use, and concurrent agents in one
// project are rare there.
func (s *Store) lock() (func(), error) { return func() {}, nil }
