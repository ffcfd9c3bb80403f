package main

import (
	"github.com/agentcli/agent/tools"
)

// deps is the only place that builds concrete things: the tool registry,
// the provider, the stores. Commands receive it and ask for what they need.
type deps struct {
	io *streams
}

// registry builds the built-in tools for the project at root.
func (d *deps) registry(root string) *tools.Registry {
	_ = root
	return tools.NewRegistry()
}
