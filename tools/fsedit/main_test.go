package fsedit

import (
	"context"
	"os"
	"testing"
)

// childEnv names the helper-process mode the test binary runs in when the
// crash and permission tests re-execute it.
const childEnv = "FSEDIT_TEST_CHILD"

func TestMain(m *testing.M) {
	switch os.Getenv(childEnv) {
	case "crash":
		crashChild()
		os.Exit(0)
	case "perm":
		permChild()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func nil2ctx() context.Context { return context.Background() }
