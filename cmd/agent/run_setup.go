package main

import (
	"context"
	"strings"
	"time"

	"github.com/agentcli/agent/agent"
	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/tools/fsedit"
)

// setupRun builds the model, the tools and the system prompt of a run in
// the project o.dir, from the configuration with o's flags on top.
func (d *deps) setupRun(ctx context.Context, o *runOptions) (*runSetup, error) {
	cfg, err := d.loadConfig(ctx, o.dir, config.Flags{
		Provider:      o.provider,
		Model:         o.model,
		Approval:      o.approval,
		MaxIterations: o.maxIterations,
	})
	if err != nil {
		return nil, err
	}
	model, err := d.model(ctx, cfg)
	if err != nil {
		return nil, err
	}
	d.files = fileOptions(cfg)
	reg := d.registry(o.dir)
	reg.Timeout = time.Duration(cfg.ToolTimeout)
	p, err := d.systemPrompt(ctx, o.dir, reg, cfg.Tree)
	if err != nil {
		return nil, err
	}
	return &runSetup{
		Model:         model,
		Tools:         reg,
		System:        p.String(),
		MaxIterations: cfg.MaxIterations,
		Approval:      agent.Policy(cfg.Approval),
	}, nil
}

// fileOptions maps the configuration's file and backup settings onto the
// file tools' options.
func fileOptions(cfg config.Config) fsedit.Options {
	o := fsedit.Options{
		MaxReadBytes:   int64(cfg.Files.ReadLimit),
		BackupMaxAge:   time.Duration(cfg.Backups.MaxAge),
		BackupMaxBytes: int64(cfg.Backups.MaxSize),
	}
	for _, e := range cfg.Files.ExtraExtensions {
		// ".tf" is an extension; "Jenkinsfile" could be either a whole
		// name or an extension written without its dot, and allowing both
		// costs nothing.
		o.Extensions = append(o.Extensions, e)
		if !strings.HasPrefix(e, ".") {
			o.Names = append(o.Names, e)
		}
	}
	return o
}
