package cmdline

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// walker visits one parsed string: the line itself, or a string a shell
// runs (bash -c, eval, trap), whose source text it holds for reasons.
type walker struct {
	p     *parser
	src   string
	via   string
	depth int
	// redirected is set inside a compound command whose output or input
	// is redirected ({ go test; } > out).
	redirected bool
	// cur is 1 + the index of the command being looked into, for the
	// commands it runs (Command.parent).
	cur int
}

// stmt visits one statement: its redirections (which may hold command
// substitutions) and its command.
func (w walker) stmt(s *syntax.Stmt) {
	redirects := w.redirected
	for _, r := range s.Redirs {
		if r.Word != nil {
			syntax.Walk(r.Word, w.visit)
			if r.Op != syntax.RdrIn && r.Op != syntax.DplIn && r.Op != syntax.DplOut {
				w.noteConfigWrite(w.word(r.Word).Text)
			}
		}
		if r.Hdoc != nil {
			syntax.Walk(r.Hdoc, w.visit)
		}
		redirects = redirects || !harmlessRedirect(r)
	}
	switch c := s.Cmd.(type) {
	case nil:
	case *syntax.CallExpr:
		w.call(c, redirects)
	default:
		w.redirected = redirects
		syntax.Walk(c, w.visit)
	}
}

// visit is the syntax.Walk visitor for everything but simple commands:
// it hands each nested statement to stmt and notes what makes a line
// dynamic.
func (w walker) visit(n syntax.Node) bool {
	switch n := n.(type) {
	case *syntax.Stmt:
		w.stmt(n)
		return false
	case *syntax.ArithmCmd, *syntax.ArithmExp, *syntax.LetClause, *syntax.TestClause:
		w.p.arith = true
		if _, ok := n.(*syntax.ArithmExp); ok {
			w.p.line.Dynamic = true
		}
	case *syntax.ParamExp:
		w.p.line.Dynamic = true
		if n.Index != nil || n.Slice != nil {
			w.p.arith = true
		}
		switch {
		case n.Exp != nil && n.Exp.Op == syntax.OtherParamOps && n.Exp.Word != nil && strings.Contains(n.Exp.Word.Lit(), "P"):
			w.p.unknown("${...@P} runs the command substitutions held in a variable's value")
		case n.Excl && n.Names == 0 && n.Index == nil:
			w.p.unknown("${!...} expands a variable named at run time, whose subscript can run a command")
		}
	case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.ExtGlob:
		w.p.line.Dynamic = true
	case *syntax.Lit:
		w.noteQuoted(n.Value)
	case *syntax.SglQuoted:
		w.noteQuoted(n.Value)
	case *syntax.DeclClause:
		w.p.arith = true // declare 'a[$(cmd)]' evaluates the subscript
		for _, a := range n.Args {
			if a.Name != nil && a.Value != nil {
				w.assign(a.Name.Value, w.word(a.Value))
			}
		}
	}
	return true
}

// noteQuoted remembers literal text that would run a command if a shell
// evaluated it again.
func (w walker) noteQuoted(s string) {
	if strings.Contains(s, "$(") || strings.Contains(s, "`") {
		w.p.quoted = true
	}
}

// harmlessRedirect reports whether r only joins or closes descriptors or
// writes to /dev/null.
func harmlessRedirect(r *syntax.Redirect) bool {
	switch r.Op {
	case syntax.DplIn, syntax.DplOut:
		return true
	case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.RdrClob:
		return r.Word != nil && r.Word.Lit() == "/dev/null"
	}
	return false
}

// call visits one simple command.
func (w walker) call(c *syntax.CallExpr, redirects bool) {
	var assigns []string
	for _, a := range c.Assigns {
		syntax.Walk(a, w.visit)
		if a.Name == nil {
			continue
		}
		assigns = append(assigns, a.Name.Value)
		if a.Value != nil {
			w.assign(a.Name.Value, w.word(a.Value))
		}
	}
	words := make([]Word, len(c.Args))
	for i, a := range c.Args {
		syntax.Walk(a, w.visit)
		words[i] = w.word(a)
	}
	if len(words) == 0 {
		return
	}
	w.command(Command{Words: words, Via: w.via, Assigns: assigns, Redirects: redirects})
}

// command records one command and looks into what it runs in turn.
func (w walker) command(c Command) {
	p := w.p
	if len(p.line.Commands) >= maxCommands {
		p.unknown("too many commands to check")
		return
	}
	if c.Words[0].Dynamic {
		p.unknown("the program is decided at run time: %s", clip(c.Words[0].Text))
	}
	p.add(c)
	w.cur = len(p.line.Commands)
	name := c.Program()
	args := c.Words[1:]
	switch {
	case name == "":
	case isShell(name):
		w.shell(name, args)
	case name == "eval":
		w.runText("eval", args)
	case name == "source" || name == ".":
		if len(args) > 0 {
			p.unknown("%s runs the commands in a file: %s", name, clip(args[0].Text))
		}
	case name == "alias" && len(args) > 0:
		p.unknown("alias changes what a name runs: %s", clip(args[0].Text))
	case name == "hash" && hasShort(args, 'p'):
		p.unknown("hash -p changes what a name runs")
	case name == "enable" && hasShort(args, 'f'):
		p.unknown("enable -f loads a builtin from a file")
	case strings.HasPrefix(name, "="):
		p.unknown("zsh runs the program found on PATH for %s", clip(name))
	case (name == "mapfile" || name == "readarray") && hasShort(args, 'C'):
		p.unknown("%s -C runs a command decided at run time", name)
	case name == "tee" || name == "cp" || name == "mv" || name == "ln" || name == "install" || name == "dd" || name == "rsync" || name == "sed" && hasShort(args, 'i'):
		for _, a := range args {
			w.noteConfigWrite(strings.TrimPrefix(a.Text, "of="))
		}
		if name == "rsync" || name == "sed" {
			w.runs(name, c)
		}
	case namesVariables(name, args):
		// bash evaluates the subscript of a name given as a[...]: text
		// held in it can run a command, as in arithmetic.
		w.p.arith = true
	case name == "trap":
		w.trap(args)
	case name == "find":
		w.find(c)
	case name == "git":
		w.git(c)
	case w.gitProgram(name, c):
	case w.runs(name, c):
	case name == "watch":
		w.watch(c)
	default:
		if spec, ok := wrapper(name); ok {
			w.unwrap(name, spec, c)
		}
	}
}

// runText parses words that a shell runs as a line (eval's arguments,
// trap's command), or notes that it cannot when one is dynamic.
func (w walker) runText(via string, args []Word) {
	text := make([]string, len(args))
	for i, a := range args {
		if a.Dynamic {
			w.p.unknown("%s runs text decided at run time: %s", via, clip(a.Text))
			return
		}
		text[i] = a.Text
	}
	if len(text) > 0 {
		w.p.parse(strings.Join(text, " "), via, w.depth+1)
	}
}

// trap's first operand is a command the shell runs later.
func (w walker) trap(args []Word) {
	i := 0
	for i < len(args) && !args[i].Dynamic && strings.HasPrefix(args[i].Text, "-") && args[i].Text != "-" {
		if args[i].Text == "--" {
			i++
			break
		}
		i++
	}
	if len(args)-i >= 2 && args[i].Text != "-" {
		w.runText("trap", args[i:i+1])
	}
}

// find runs the command after -exec, -execdir, -ok or -okdir, up to ";"
// or "+", once per file found.
func (w walker) find(c Command) {
	args := c.Words[1:]
	for i := 0; i < len(args); i++ {
		switch args[i].Text {
		case "-exec", "-execdir", "-ok", "-okdir":
		default:
			continue
		}
		j := i + 1
		for j < len(args) && !(args[j].Text == ";" || args[j].Text == "+") {
			j++
		}
		if j > i+1 {
			w.command(Command{Words: args[i+1 : j], Via: "find " + args[i].Text})
		}
		i = j
	}
}

// watch runs its operands through sh -c, or directly with -x.
func (w walker) watch(c Command) {
	i, exec := 1, false
	for i < len(c.Words) {
		a := c.Words[i]
		if a.Dynamic || !strings.HasPrefix(a.Text, "-") {
			break
		}
		i++
		if a.Text == "--" {
			break
		}
		switch a.Text {
		case "-x", "--exec":
			exec = true
		case "-n", "--interval":
			i++
		}
	}
	if i >= len(c.Words) {
		return
	}
	if exec {
		w.command(Command{Words: c.Words[i:], Via: "watch"})
		return
	}
	w.runText("watch", c.Words[i:])
}

// hasShort reports whether one of args is a short option group holding
// letter (-p, -vp).
func hasShort(args []Word, letter byte) bool {
	for _, a := range args {
		if !a.Dynamic && len(a.Text) > 1 && a.Text[0] == '-' && a.Text[1] != '-' && strings.IndexByte(a.Text, letter) > 0 {
			return true
		}
	}
	return false
}

// namesVariables reports whether a builtin takes a variable's name among
// args that holds a subscript ([ -v 'a[...]' ], printf -v, read, unset,
// getopts, mapfile, wait -p, declare and its kin written as a command).
func namesVariables(name string, args []Word) bool {
	switch name {
	case "[", "test":
		if !slices.ContainsFunc(args, func(a Word) bool { return a.Text == "-v" || a.Text == "-R" }) {
			return false
		}
	case "printf":
		if !hasShort(args, 'v') {
			return false
		}
	case "wait":
		if !hasShort(args, 'p') {
			return false
		}
	case "read", "unset", "getopts", "mapfile", "readarray", "declare", "typeset", "local", "export", "readonly", "let":
	default:
		return false
	}
	return slices.ContainsFunc(args, func(a Word) bool { return a.Dynamic || strings.Contains(a.Text, "[") })
}
