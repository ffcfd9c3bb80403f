package cmdline

import "strings"

// GitValue says what git does with the value of one of its settings.
type GitValue int

// The kinds of GitSetting.
const (
	// GitData: git runs nothing the value names.
	GitData GitValue = iota
	// GitCommand: the value is a command line git runs (core.pager,
	// filter.x.clean, diff.x.textconv).
	GitCommand
	// GitBangCommand: the value is a command line when it starts with
	// "!" (alias.x, credential.helper); otherwise a git command, or for
	// a helper a program named by its path.
	GitBangCommand
	// GitFile: the value names a file or folder whose settings or
	// programs git reads (include.path, core.hooksPath).
	GitFile
)

// GitSetting says what git does with the value of the setting key
// ("core.pager", "filter.lfs.clean", "includeIf.gitdir:~/w/.path"): the
// section and the name are matched without case, the subsection as
// written.
func GitSetting(key string) GitValue {
	section, rest, _ := strings.Cut(key, ".")
	section = strings.ToLower(section)
	sub, name := "", rest
	if i := strings.LastIndexByte(rest, '.'); i >= 0 {
		sub, name = rest[:i], rest[i+1:]
	}
	name = strings.ToLower(name)
	switch {
	case section == "include" && sub == "" && name == "path",
		section == "includeif" && name == "path",
		section == "core" && sub == "" && (name == "hookspath" || name == "attributesfile"):
		return GitFile
	case section == "alias", section == "credential" && name == "helper", section == "submodule" && name == "update":
		return GitBangCommand
	case sub == "" && gitCommandKey(section+"."+name),
		section == "pager",
		section == "filter" && (name == "clean" || name == "smudge" || name == "process"),
		section == "diff" && (name == "command" || name == "textconv"),
		section == "merge" && name == "driver",
		section == "gpg" && name == "program",
		section == "remote" && (name == "uploadpack" || name == "receivepack"),
		(section == "difftool" || section == "mergetool" || section == "browser" || section == "man") && name == "cmd",
		section == "trailer" && (name == "command" || name == "cmd"):
		return GitCommand
	}
	return GitData
}

// gitCommandKey reports whether a git setting without a subsection is a
// command git runs.
func gitCommandKey(key string) bool {
	switch key {
	case "core.pager", "core.editor", "core.sshcommand", "core.fsmonitor", "core.askpass", "core.gitproxy",
		"sequence.editor", "diff.external", "interactive.difffilter", "uploadpack.packobjectshook",
		"gpg.program", "sendemail.smtpserver", "sendemail.sendmailcmd", "sendemail.tocmd", "sendemail.cccmd":
		return true
	}
	return false
}
