package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/agentcli/agent/agent/selfcheck"
)

// demoOptions are the flags of demo-chat-tools.
type demoOptions struct {
	live, keep, verbose bool
	// provider and model are the model of --live.
	provider, model string
}

// newDemoCmd is `agent demo-chat-tools`; runF, when set, runs instead.
func newDemoCmd(d *factory, runF func(*demoOptions) error) *cobra.Command {
	o := &demoOptions{}
	cmd := &cobra.Command{
		Use:   "demo-chat-tools",
		Short: "Watch the whole tool loop at work in a temporary project",
		Long: `demo-chat-tools creates a small temporary project and runs one request in
it, printing the whole conversation as it goes: the model's text, each
tool call as the model wrote it, and each <tool_response> sent back.

By default a built-in scripted model plays the model's part, so the demo
needs no key and no network. With --live the same request goes to the
configured provider. With -v the system prompt is shown first and each
<tool_response> is shown whole, as the self-checks' -v does.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(o)
			}
			return runDemo(cmd.Context(), d, o)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&o.live, "live", false, "send the request to the configured provider instead of the scripted model")
	f.BoolVar(&o.keep, "keep", false, "keep the temporary project afterwards")
	f.BoolVarP(&o.verbose, "verbose", "v", false, "show the system prompt and each tool response whole")
	f.StringVar(&o.provider, "provider", "", "model provider for --live")
	f.StringVar(&o.model, "model", "", "model name for --live")
	return cmd
}

func runDemo(ctx context.Context, d *factory, do *demoOptions) error {
	// Everything the demo prints comes from the model or its tools.
	return selfcheck.RunDemo(ctx, d.builder(), safeWriter{d.io.Out}, selfcheck.DemoOptions{
		Live: do.live, Keep: do.keep, Verbose: do.verbose, Provider: do.provider, Model: do.model})
}
