package shell

import (
	"testing"

	"github.com/agentcli/agent/tools"
)

// BenchmarkTrueSandboxed is the sandbox's start-up cost per command:
// `true` under bubblewrap (with the process limit and both scans of an
// empty project), to compare with BenchmarkTrueBare.
func BenchmarkTrueSandboxed(b *testing.B) { benchTrue(b, Options{}) }

// BenchmarkTrueBare is `true` through the same tool with the sandbox off.
func BenchmarkTrueBare(b *testing.B) { benchTrue(b, Options{NoSandbox: true}) }

func benchTrue(b *testing.B, opts Options) {
	if !opts.NoSandbox {
		needBwrap(b)
	}
	tool := New(b.TempDir(), opts)
	reg := tools.NewRegistry(tool)
	args := map[string]string{"command": "true"}
	for b.Loop() {
		res, err := reg.Call(b.Context(), "run_command", args)
		if err != nil || res.IsError() || meta(res, "exit_code") != "0" {
			b.Fatalf("%v %+v", err, res)
		}
	}
}
