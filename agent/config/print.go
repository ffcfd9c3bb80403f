package config

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// Mask shows enough of a secret to tell which one it is, and no more.
func Mask(secret string) string {
	switch {
	case secret == "":
		return ""
	case len(secret) < 20:
		return strings.Repeat("*", 8)
	}
	return secret[:4] + "…" + secret[len(secret)-4:]
}

// Write prints c as TOML that could be pasted into a config file, each
// value followed by where it came from. The key is masked and shown only
// as a comment: keys belong in the environment.
func (c *Config) Write(w io.Writer) error {
	var b strings.Builder
	b.WriteString("# Effective configuration: flags > environment > project file > user file > defaults.\n")
	for _, f := range c.Searched {
		state := "not found"
		if slices.Contains(c.FilesRead, f) {
			state = "read"
		}
		fmt.Fprintf(&b, "# Config file %s (%s)\n", f, state)
	}
	for _, ig := range c.Ignored {
		why := "the project is not trusted (--trust, or answer yes on a terminal)"
		if ig.UserOnly {
			why = "only your own config file may set it"
		}
		fmt.Fprintf(&b, "# Ignored from %s: %s: %s\n", ig.File, ig, why)
	}
	line := func(key, value string) {
		name := key[strings.LastIndex(key, ".")+1:]
		fmt.Fprintf(&b, "%-44s # %s\n", name+" = "+value, c.Origin(key))
	}
	q := strconv.Quote
	if c.Provider == "" {
		b.WriteString("provider = \"\"                                # none configured\n")
	} else {
		line("provider", q(c.Provider))
	}
	line("model", q(c.Model))
	line("base_url", q(c.BaseURL))
	if c.APIKeyEnv != "" {
		line("api_key_env", q(c.APIKeyEnv))
	}
	switch {
	case c.Provider == "":
	case c.APIKey != "":
		fmt.Fprintf(&b, "# api key: %s (from %s)\n", Mask(c.APIKey), c.KeyEnv)
	case c.KeyRequired():
		fmt.Fprintf(&b, "# api key: not set (set %s)\n", c.KeyEnv)
	default:
		b.WriteString("# api key: none needed\n")
	}
	line("max_iterations", strconv.Itoa(c.MaxIterations))
	line("approval", q(c.Approval))
	line("tool_timeout", q(c.ToolTimeout.String()))
	line("model_timeout", q(c.ModelTimeout.String()))
	line("stdin_timeout", q(c.StdinTimeout.String()))
	c.writeContext(&b, line)
	b.WriteString("\n[retry]\n")
	line("retry.attempts", strconv.Itoa(c.Retry.Attempts))
	line("retry.max_time", q(c.Retry.MaxTime.String()))
	b.WriteString("\n[tree]\n")
	line("tree.budget", strconv.Itoa(c.Tree.Budget))
	line("tree.style", q(c.Tree.Style))
	b.WriteString("\n[files]\n")
	line("files.read_limit", q(c.Files.ReadLimit.String()))
	line("files.allow_secrets", quotedList(c.Files.AllowSecrets))
	if len(c.Files.ExtraExtensions) > 0 {
		b.WriteString("# files.extra_extensions is read and ignored: every text file is editable\n")
	}
	b.WriteString("\n[backups]\n")
	line("backups.max_age", q(c.Backups.MaxAge.String()))
	line("backups.max_size", q(c.Backups.MaxSize.String()))
	c.writeShell(&b, line)
	c.writeWeb(&b, line)
	c.writeGit(&b, line)
	c.writePrograms(&b, line)
	c.writeLSP(&b, line)
	c.writePermissions(&b, line)
	c.writeNotes(&b, line)
	c.writeTTS(&b, line)
	c.writeAgents(&b, line)
	c.writeMCP(&b, line)
	c.writeHooks(&b)
	c.writeChat(&b, line)
	_, err := io.WriteString(w, b.String())
	return err
}
