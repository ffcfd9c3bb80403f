package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// acpxBin is where .ci/run installs acpx, the headless ACP client, from
// the npm registry (.ci/npm).
func acpxBin(t testing.TB) string {
	dir, err := filepath.Abs("../../.ci/npm/node_modules/.bin")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "acpx")); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("acpx is missing: .ci/run installs it (npm ci in .ci/npm)")
		}
		t.Skipf("acpx is not installed: run npm ci in .ci/npm")
	}
	return dir
}

// TestACPScript runs the scripts in testdata/acp: acpx, a real ACP
// client, starts `agent acp` in a project against a fake model server
// and drives a turn through the protocol (its --format json prints
// every message). Node starts slowly, so they are left out under
// -short.
func TestACPScript(t *testing.T) {
	if testing.Short() {
		t.Skip("the ACP scripts start acpx, a node program; skipped under -short")
	}
	bin := acpxBin(t)
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/acp",
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("XDG_CONFIG_HOME", filepath.Join(env.WorkDir, ".config"))
			// acpx keeps its sessions under the home folder.
			env.Setenv("HOME", filepath.Join(env.WorkDir, ".home"))
			env.Setenv("PATH", bin+string(os.PathListSeparator)+env.Getenv("PATH"))
			env.Values[fakeKey{}] = &fakeState{}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"fakellm": func(ts *testscript.TestScript, neg bool, args []string) { cmdFakeLLM(t, ts, neg, args) },
			"llmreq":  cmdLLMReq,
		},
	})
}
