package main

import (
	"context"
	"errors"
)

// setupRun builds the model, tools and system prompt of a run from the
// configuration and the flags.
func (d *deps) setupRun(ctx context.Context, o *runOptions) (*runSetup, error) {
	return nil, errors.New("no provider is wired yet")
}
