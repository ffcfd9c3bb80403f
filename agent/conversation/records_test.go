package conversation

import (
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

// TestProjectsAreRemembered: each project is listed once, whoever adds
// it at the same moment, and the .agent folders of the others are what
// a project's sandbox masks.
func TestProjectsAreRemembered(t *testing.T) {
	user := filepath.Join(t.TempDir(), "agent")
	a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if err := RememberProject(user, a); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if err := RememberProject(user, b); err != nil {
		t.Fatal(err)
	}
	if got := OtherRecords(user, a); !slices.Equal(got, []string{filepath.Join(b, ".agent")}) {
		t.Errorf("OtherRecords(a) = %v; want b's .agent", got)
	}
	if got := OtherRecords(user, filepath.Join(t.TempDir(), "c")); len(got) != 2 {
		t.Errorf("OtherRecords(c) = %v; want a's and b's", got)
	}
	if fi, err := os.Stat(filepath.Join(user, recordsFile)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the list: %v %v; want a file of mode 0600", fi, err)
	}
	if err := RememberProject("", a); err != nil || OtherRecords("", b) != nil {
		t.Error("with no user folder, a list was kept")
	}
}
