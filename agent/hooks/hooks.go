package hooks

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"
)

// Event names a step of the agent's work where hooks run: Claude Code's
// names, which a configuration copied from its settings uses.
type Event string

// The events, in the order a session meets them.
const (
	SessionStart     Event = "SessionStart"     // a conversation starts, is resumed or cleared
	UserPromptSubmit Event = "UserPromptSubmit" // the person sent a message, before the model sees it
	PreToolUse       Event = "PreToolUse"       // a call is about to run (before its approval)
	PostToolUse      Event = "PostToolUse"      // a call ran and succeeded
	Notification     Event = "Notification"     // the agent waits for the person
	Stop             Event = "Stop"             // the model answered: the turn would end
	SubagentStop     Event = "SubagentStop"     // a sub-agent answered
	PreCompact       Event = "PreCompact"       // the conversation is about to be summarised
	SessionEnd       Event = "SessionEnd"       // a conversation ends
)

// Events are every event, in the order a session meets them.
var Events = []Event{SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, Notification, Stop, SubagentStop, PreCompact, SessionEnd}

// HasTool reports whether the event is about a tool call: only those take
// a matcher.
func (e Event) HasTool() bool { return e == PreToolUse || e == PostToolUse }

// DefaultTimeout is a hook's time limit when its configuration gives none.
const DefaultTimeout = 60 * time.Second

// Hook is one configured hook.
type Hook struct {
	Event Event
	// Matcher is a regular expression a tool event's tool name must
	// match whole, ours or one of Claude Code's for the tool (Write,
	// Bash, ...); "" and "*" match every tool.
	Matcher string
	// Command is the shell line that runs, with sh -c, in the project
	// folder.
	Command string
	// Timeout is the time limit; DefaultTimeout when 0.
	Timeout time.Duration
	// Claude says the hook reads and writes Claude Code's tool names and
	// parameters (format = "claude") instead of the agent's.
	Claude bool
	// Origin is the configuration file that defines it.
	Origin string
	// Project is true for a hook of the project's own configuration,
	// which runs in the sandbox.
	Project bool
}

// Name is how a person sees the hook: the file name of the program (or
// the script an interpreter runs) its command starts with.
func (h Hook) Name() string {
	words := strings.Fields(h.Command)
	if len(words) == 0 {
		return "(empty)"
	}
	for _, w := range words[:min(2, len(words))] {
		if w = strings.Trim(w, `"'`); strings.Contains(w, "/") {
			return filepath.Base(w)
		}
	}
	return strings.Trim(words[0], `"'`)
}

// limit is the hook's time limit.
func (h Hook) limit() time.Duration {
	if h.Timeout > 0 {
		return h.Timeout
	}
	return DefaultTimeout
}

// Options configure a Runner.
type Options struct {
	// Dir is the project folder, absolute with its links resolved: the
	// hooks' working folder, their cwd, and what a path of the claude
	// format is absolute from.
	Dir string
	// Start makes the command that runs h's shell line with env added to
	// its environment, not yet started, in a session of its own (one
	// process group to end): the person's hooks as the person with the
	// trusted PATH, a project's in the sandbox. An error is the hook's
	// failure, shown to the person.
	Start func(h Hook, env []string) (*exec.Cmd, error)
}

// Runner runs the configured hooks. It is safe for concurrent use.
type Runner struct {
	hooks []Hook
	match []*regexp.Regexp // by hook; nil matches every tool
	o     Options
}

// New returns the Runner of list (config order kept). A matcher that is
// not a regular expression is an error.
func New(list []Hook, o Options) (*Runner, error) {
	r := &Runner{hooks: list, match: make([]*regexp.Regexp, len(list)), o: o}
	for i, h := range list {
		if h.Matcher == "" || h.Matcher == "*" || !h.Event.HasTool() {
			continue
		}
		re, err := regexp.Compile(`^(?:` + h.Matcher + `)$`)
		if err != nil {
			return nil, fmt.Errorf("hook %s: matcher %q is not a regular expression: %w", h.Name(), h.Matcher, err)
		}
		r.match[i] = re
	}
	return r, nil
}

// Hooks returns the configured hooks, in config order.
func (r *Runner) Hooks() []Hook {
	if r == nil {
		return nil
	}
	return append([]Hook(nil), r.hooks...)
}

// Dir is the project folder the hooks run in.
func (r *Runner) Dir() string { return r.o.Dir }

// Has reports whether any hook is set for event e.
func (r *Runner) Has(e Event) bool {
	if r == nil {
		return false
	}
	for _, h := range r.hooks {
		if h.Event == e {
			return true
		}
	}
	return false
}

// matching returns the indexes of the hooks of in's event that match its
// tool, in config order.
func (r *Runner) matching(in Input) []int {
	var out []int
	for i, h := range r.hooks {
		if h.Event != in.Event {
			continue
		}
		if re := r.match[i]; re != nil && !matchesTool(re, in.Tool) {
			continue
		}
		out = append(out, i)
	}
	return out
}

// matchesTool reports whether re matches the tool's name or one of
// Claude Code's names for it.
func matchesTool(re *regexp.Regexp, tool string) bool {
	if re.MatchString(tool) {
		return true
	}
	for _, n := range claudeNames[tool] {
		if re.MatchString(n) {
			return true
		}
	}
	return false
}

// Fire runs the hooks of in's event that match, all at once, and applies
// what they said in config order. Without a matching hook it does
// nothing and costs nothing. Cancelling ctx ends the hooks still running.
func (r *Runner) Fire(ctx context.Context, in Input) Outcome {
	if r == nil {
		return Outcome{}
	}
	idx := r.matching(in)
	if len(idx) == 0 {
		return Outcome{}
	}
	verdicts := make([]verdict, len(idx))
	var wg sync.WaitGroup
	for j, i := range idx {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h := r.hooks[i]
			verdicts[j] = read(h, in, r.o.Dir, r.run(ctx, h, in))
		}()
	}
	wg.Wait()
	var o Outcome
	for j, i := range idx {
		o.add(r.hooks[i], in, r.o.Dir, verdicts[j])
	}
	return o
}
