package selfcheck

import (
	"context"
	"fmt"
	"io"

	"github.com/agentcli/agent/agent/app"
)

// Run runs the self-check name's scenario run in the project folder dir
// with a conversation b builds, printing each check (verbose: each reply
// and response too) and the tally to out; failed is how many checks
// failed.
func Run(ctx context.Context, b *app.Builder, name, dir string, verbose bool, out io.Writer, run Scenario) (failed int, err error) {
	st, err := New(ctx, b, dir, out)
	if err != nil {
		return 0, err
	}
	defer st.Close()
	st.Verbose = verbose
	fmt.Fprintf(out, "%s: project %s\n", name, dir)
	run(ctx, st)
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	fmt.Fprintf(out, "%d checks: %d passed, %d failed\n", st.Passed()+st.Failed(), st.Passed(), st.Failed())
	return st.Failed(), nil
}
