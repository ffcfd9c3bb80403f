package main

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// npmBin is where .ci/run installs the official MCP tools from the npm
// registry (the MCP Inspector and the "everything" reference server).
func npmBin(t testing.TB) string {
	dir, err := filepath.Abs("../../.ci/npm/node_modules/.bin")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"mcp-inspector", "mcp-server-everything"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is missing: .ci/run installs it (npm ci in .ci/npm)", name)
			}
			t.Skipf("%s is not installed: run npm ci in .ci/npm", name)
		}
	}
	return dir
}

// TestMCPScript runs the scripts in testdata/mcp against the official MCP
// tools: the Inspector's CLI lists and calls our tools over stdio and
// HTTP, and the everything server's tools are imported and called by
// agent run through the XML protocol. Node starts slowly (seconds per
// process), so they are left out under -short.
//
// Extra commands, besides those of TestScript:
//
//	freeport VAR      set VAR to a free port on 127.0.0.1
//	waitport PORT     wait until something listens on 127.0.0.1:PORT
func TestMCPScript(t *testing.T) {
	if testing.Short() {
		t.Skip("the MCP interoperability scripts start node programs; skipped under -short")
	}
	bin := npmBin(t)
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/mcp",
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("XDG_CONFIG_HOME", filepath.Join(env.WorkDir, ".config"))
			env.Setenv("NPMBIN", bin)
			env.Values[fakeKey{}] = &fakeState{}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"fakellm":  func(ts *testscript.TestScript, neg bool, args []string) { cmdFakeLLM(t, ts, neg, args) },
			"llmreq":   cmdLLMReq,
			"freeport": cmdFreePort,
			"waitport": cmdWaitPort,
		},
	})
}

func cmdFreePort(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: freeport VAR")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	ts.Setenv(args[0], strconv.Itoa(port))
}

func cmdWaitPort(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: waitport PORT")
	}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		c, err := net.Dial("tcp", "127.0.0.1:"+args[0])
		if err == nil {
			c.Close()
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	ts.Fatalf("%s", fmt.Sprintf("nothing listens on 127.0.0.1:%s", args[0]))
}
