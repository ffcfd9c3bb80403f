package app

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/xmlcall"
	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/sandbox"
)

// RunCalls runs calls through reg, one change set for all, the way the
// agent runs a model's calls, and writes each <tool_response> to w
// (without its content when quiet); failed says a call failed.
func RunCalls(ctx context.Context, reg *tools.Registry, calls []xmlcall.Call, quiet bool, w io.Writer) (failed bool, err error) {
	changeSet := sandbox.NewChangeSetID(time.Now())
	for i, c := range calls {
		c.ID = fmt.Sprint(i + 1)
		ctx := tools.WithInfo(ctx, tools.CallInfo{CallID: c.ID, ChangeSet: changeSet})
		res, err := reg.Call(ctx, c.Name, c.Args())
		if err != nil {
			return failed, err
		}
		failed = failed || res.IsError()
		r := agent.CallResult{ID: c.ID, Tool: c.Name, Params: c.Params, Result: res}.Response()
		if quiet {
			r.Content = ""
		}
		if err := xmlcall.Render(w, r); err != nil {
			return failed, err
		}
	}
	return failed, nil
}

// CallsFromArgs reads tool calls from command-line words (agent
// tool-call): NAME k=v ... [+ NAME k=v ...], a value k=@path read from
// the file path.
func CallsFromArgs(args []string) ([]xmlcall.Call, error) {
	var calls []xmlcall.Call
	start := true
	for _, a := range args {
		switch {
		case a == "+":
			start = true
		case start:
			calls = append(calls, xmlcall.Call{Name: a})
			start = false
		default:
			k, v, ok := strings.Cut(a, "=")
			if !ok {
				return nil, fmt.Errorf("argument %q is not key=value", a)
			}
			if path, ok := strings.CutPrefix(v, "@"); ok {
				b, err := os.ReadFile(path)
				if err != nil {
					return nil, err
				}
				v = string(b)
			}
			c := &calls[len(calls)-1]
			c.Params = append(c.Params, xmlcall.Param{Name: k, Value: v})
		}
	}
	if len(calls) == 0 {
		return nil, fmt.Errorf("no tool named")
	}
	return calls, nil
}
