package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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
	files := fsedit.NewSession(d.fileRoot(o.dir))
	reg := d.registryWith(files)
	reg.Timeout = time.Duration(cfg.ToolTimeout)
	closeMCP, err := d.addMCPTools(ctx, cfg, o.dir, reg)
	if err != nil {
		return nil, err
	}
	p, err := d.systemPrompt(ctx, o.dir, reg, cfg.Tree)
	if err != nil {
		closeMCP()
		return nil, err
	}
	return &runSetup{
		Model:         model,
		Tools:         reg,
		System:        p.String(),
		MaxIterations: cfg.MaxIterations,
		Approval:      agent.Policy(cfg.Approval),
		Files:         files,
		Close:         closeMCP,
	}, nil
}

// fileStatePath is where the file tools' knowledge of a session (which
// files the model read, and in what state) is kept between runs.
func fileStatePath(root, sessionID string) string {
	return filepath.Join(root, agent.SessionDir, sessionID+".files.json")
}

// loadFileState restores what the model of a continued session had read,
// so its writes are not refused as stale. A missing state is no error.
func loadFileState(files *fsedit.Session, root, sessionID string) error {
	f, err := os.Open(fileStatePath(root, sessionID))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read file state: %w", err)
	}
	defer f.Close()
	if err := files.LoadState(f); err != nil {
		return fmt.Errorf("read file state: %w", err)
	}
	return nil
}

// saveFileState writes the file session's state next to the session log,
// through a temporary file so a crash never leaves half a state.
func saveFileState(files *fsedit.Session, root, sessionID string) error {
	path := fileStatePath(root, sessionID)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("save file state: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".files-*.tmp")
	if err != nil {
		return fmt.Errorf("save file state: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := files.SaveState(tmp); err != nil {
		tmp.Close()
		return fmt.Errorf("save file state: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("save file state: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("save file state: %w", err)
	}
	return nil
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
