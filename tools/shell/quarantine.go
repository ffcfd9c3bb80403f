package shell

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/sandbox/backup"
)

// What the git guard (gitguard.go) does with a repository a command
// planted: judged by the inode change time when the walk before the
// command may have missed it, moved into .agent/quarantine, and told.

// quarantineDir is where planted repositories go, inside .agent (which
// commands cannot write).
const quarantineDir = "quarantine"

// ctimeSlack covers the coarse clock the kernel stamps files with.
const ctimeSlack = 50 * time.Millisecond

func ctime(fi fs.FileInfo) time.Time {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return time.Unix(st.Ctim.Sec, st.Ctim.Nsec)
	}
	return fi.ModTime()
}

// createdSince reports whether the entry at p itself was made (or last
// had its metadata changed) after start.
func createdSince(p string, start time.Time) bool {
	fi, err := os.Lstat(p)
	return err == nil && !ctime(fi).Before(start.Add(-ctimeSlack))
}

// touchedSince reports whether a repository or anything git reads from it
// to decide what to run (its config, hooks, info, the folder a .git file
// points to) changed after start. The inode change time cannot be set
// back by the command, unlike the modification time. Bounded: at most a
// few hundred entries are looked at.
func touchedSince(p string, start time.Time) bool {
	if createdSince(p, start) {
		return true
	}
	dir := p
	if target := gitdirOf(p); target != "" {
		if createdSince(target, start) {
			return true
		}
		dir = target
	}
	seen := 0
	var look func(d string, depth int) bool
	look = func(d string, depth int) bool {
		ents, err := readNames(d)
		if err != nil {
			return false
		}
		for _, e := range ents {
			if seen++; seen > 500 {
				return false
			}
			full := filepath.Join(d, e.Name())
			if createdSince(full, start) {
				return true
			}
			if depth == 0 && e.IsDir() && (e.Name() == "hooks" || e.Name() == "info" || e.Name() == "worktrees") && look(full, depth+1) {
				return true
			}
		}
		return false
	}
	return look(dir, 0)
}

// quarantine moves the repository at rel into .agent/quarantine under a
// name git does not look for, keeping everything in it. Every step goes
// through an os.Root of the project, so nothing is moved out of it. When
// .agent/quarantine cannot hold it (a link or a file there, as a cloned
// repository may ship, or another file system), it is renamed where it
// is, and why is said in note.
func quarantine(root, rel, stamp string) (to, note string, err error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return "", "", err
	}
	defer r.Close()
	name := stamp + "-" + strings.ReplaceAll(rel, "/", "_")
	dir := ".agent/" + quarantineDir
	err = backup.CheckReal(r, dir)
	if err == nil {
		err = r.MkdirAll(dir, 0o700)
	}
	if err == nil {
		if to, err = freeName(r, dir+"/"+name); err == nil {
			if err = r.Rename(rel, to); err == nil {
				return to, "", nil
			}
		}
	}
	note = "not into .agent/quarantine: " + err.Error()
	var linked *backup.LinkedError
	switch {
	case errors.As(err, &linked) && linked.Link:
		note = "not into .agent/quarantine: " + linked.Path + " is a symlink, which the agent does not follow"
	case errors.As(err, &linked):
		note = "not into .agent/quarantine: " + linked.Path + " is not a folder"
	}
	// Beside itself, on its own file system.
	to, ferr := freeName(r, rel+".quarantined-"+stamp)
	if ferr != nil {
		return "", "", err
	}
	if rerr := r.Rename(rel, to); rerr != nil {
		return "", "", rerr
	}
	return to, note, nil
}

// freeName is p, or p-2, p-3... whichever does not exist yet in r.
func freeName(r *os.Root, p string) (string, error) {
	for i := 1; i < 1000; i++ {
		c := p
		if i > 1 {
			c = fmt.Sprintf("%s-%d", p, i)
		}
		if _, err := r.Lstat(c); errors.Is(err, fs.ErrNotExist) {
			return c, nil
		}
	}
	return "", fmt.Errorf("no free name for %s", p)
}

// moved is one thing the guard took out of git's way.
type moved struct {
	rel string // where it was, relative to the project (absolute outside it)
	to  string // where it is now, likewise; "" when it could not be moved
	// note says why it was renamed in place rather than moved into
	// .agent/quarantine.
	note string
	// marker: an entry that made the folder dir a git directory (the
	// project folder when dir is "").
	marker bool
	dir    string
	// why: a path git reads settings or programs from, and the setting
	// that names it; replaced says it was there before and the command
	// put another in its place.
	why      string
	replaced bool
	// unsure: the walk before the command did not reach it, so it may
	// have been there, unprotected, and changed by the command.
	unsure bool
	err    error
}

// gitReport is what the guard found after a command.
type gitReport struct {
	moved []moved
	// unread are the folders the walk after the command did not read
	// within limit; unreadable those the command made unreadable. Either
	// means a planted repository may be there, unseen.
	unread     []string
	limit      time.Duration
	unreadable []string
}

// incomplete names the folders the guard could not look into after the
// command, and why, in one sentence; "" when it saw the whole project.
func (r gitReport) incomplete() string {
	var parts []string
	if len(r.unread) > 0 {
		parts = append(parts, fmt.Sprintf("looking through the project took over %s; not read: %s", r.limit, unchecked(r.unread)))
	}
	if len(r.unreadable) > 0 {
		names := r.unreadable[:min(len(r.unreadable), 8)]
		list := strings.Join(names, ", ")
		if rest := len(r.unreadable) - len(names); rest > 0 {
			list += fmt.Sprintf(" and %d more", rest)
		}
		parts = append(parts, "the command made folders that cannot be read: "+list)
	}
	if len(parts) == 0 {
		return ""
	}
	return "not all of the project was checked for git repositories the command may have planted (" + strings.Join(parts, "; ") +
		"): do not run git in those folders until you have looked for .git entries and HEAD files there yourself"
}

// count is how many things were moved away: the markers of one folder
// count once.
func (r gitReport) count() int {
	n := 0
	for i, m := range r.moved {
		if !m.marker || !slices.ContainsFunc(r.moved[:i], func(o moved) bool { return o.marker && o.dir == m.dir }) {
			n++
		}
	}
	return n
}

// what says what the command did, for an alert.
func (m moved) what() string {
	switch {
	case m.why != "" && m.replaced:
		return fmt.Sprintf("replaced %s, which git reads settings or programs from (%s): git would run what it holds outside the sandbox", m.rel, m.why)
	case m.why != "":
		return fmt.Sprintf("created %s, which git reads settings or programs from (%s): git would run what it holds outside the sandbox", m.rel, m.why)
	case m.marker && m.dir == "":
		return "created " + m.rel + ", which made the project folder a git repository to git, whose config git would run outside the sandbox"
	case m.marker:
		return "created " + m.rel + ", which made " + m.dir + " a git repository to git, whose config git would run outside the sandbox"
	case m.unsure:
		return "created or changed " + m.rel + ", a git repository the sandbox had not protected, whose config git would run outside the sandbox"
	}
	return "created " + m.rel + ", a git repository, whose config git would run outside the sandbox"
}

// subject is who the guard's report names as the one that planted what
// it moved: the command, or a program of the project (GitWatch).
type subject struct {
	who  string // "the command"
	rule string // the sentence the model is told after the warnings
}

var commandSubject = subject{who: "the command",
	rule: "Commands cannot create or change git repositories, nor the files git's config names: git is for the user to run."}

// render says what the guard did, for the model (text) and for the
// person (alerts).
func (r gitReport) render(by subject) (text string, alerts []string) {
	var b strings.Builder
	for _, m := range r.moved {
		var alert string
		switch {
		case m.err != nil:
			what, _, _ := strings.Cut(m.what(), ", whose config")
			what, _, _ = strings.Cut(what, ": git would run")
			alert = fmt.Sprintf("%s %s; it could not be moved away (%v): do not run git there until you have checked it", by.who, what, m.err)
		case m.note != "":
			alert = fmt.Sprintf("%s %s; renamed to %s (%s)", by.who, m.what(), m.to, m.note)
		default:
			alert = fmt.Sprintf("%s %s; moved to %s", by.who, m.what(), m.to)
		}
		alerts = append(alerts, alert)
		fmt.Fprintf(&b, "Warning: %s.\n", upperFirst(alert))
	}
	if len(r.moved) > 0 {
		b.WriteString(by.rule + "\n")
	}
	if why := r.incomplete(); why != "" {
		alerts = append(alerts, why)
		fmt.Fprintf(&b, "Warning: %s. The turn was stopped so that the user can check them first.\n", upperFirst(why))
	}
	return b.String(), alerts
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// reportGit adds what the guard found to a command's result.
func (t *Tool) reportGit(r *tools.Result, rep gitReport) { addGitReport(r, rep, commandSubject) }

// addGitReport adds what the guard found to a call's result: the model
// reads it in the content (or the message of an error), the person in
// the alerts. Folders it could not look into stop the turn (r.Halt): the
// person must check them before git runs there.
func addGitReport(r *tools.Result, rep gitReport, by subject) {
	text, alerts := rep.render(by)
	r.Alerts = append(r.Alerts, alerts...)
	if why := rep.incomplete(); why != "" {
		r.Halt = why
	}
	if text == "" {
		return
	}
	if r.IsError() {
		if len(rep.moved) > 0 {
			r.Message += "; " + strings.TrimSuffix(strings.TrimPrefix(strings.SplitN(text, "\n", 2)[0], "Warning: "), ".")
		}
		if r.Halt != "" {
			r.Message += "; " + r.Halt
		}
		return
	}
	if len(rep.moved) > 0 {
		what := "planted git repository"
		if slices.ContainsFunc(rep.moved, func(m moved) bool { return m.why != "" }) {
			what = "planted git file"
		}
		r.Message += "; " + plural(rep.count(), what) + " moved away"
	}
	if rep.incomplete() != "" {
		r.Message += "; not all of the project could be checked for planted git repositories, so the turn stops here"
	}
	r.Content += "\n" + text
}
