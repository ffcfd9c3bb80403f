package config

import (
	"cmp"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
)

// keyClass is what a project's config file may do with a setting.
type keyClass int

const (
	// unclassified is a setting nobody decided about: no project may set
	// it, trusted or not. TestEverySettingIsClassified keeps it empty,
	// so that a new setting is closed to projects until someone decides.
	unclassified keyClass = iota
	// anyProject settings apply from any project: they choose among the
	// things the user already allows (a model of their provider, how
	// the tree looks).
	anyProject
	// trustedProject settings apply once the user trusts the project:
	// they could send data or keys elsewhere, run programs, weaken
	// safety or change what the person is told a run costs.
	trustedProject
	// userOnly settings come from the user's own file only: they widen
	// what the agent may do without asking, or, like the serve token,
	// are a secret a project's author must not choose.
	userOnly
	// raiseNeedsTrust settings are limits a project may lower at any
	// time but raise above the user's only once trusted (raised): a
	// cloned repository must not make a run cost more (model calls,
	// tokens, thinking) or wait longer than its user chose.
	raiseNeedsTrust
)

// settingClasses classifies every setting by its dotted name, or a whole
// table by the table's name; "*" stands for a name the file chooses (a
// model's). The longest name that covers a key decides.
var settingClasses = map[string]keyClass{
	"model":                  anyProject,
	"images":                 anyProject,
	"models.*.images":        anyProject,
	"tree.style":             anyProject,
	"files.extra_extensions": anyProject, // read and ignored
	"tts.model":              anyProject,
	"tts.voice":              anyProject,
	"tts.concurrency":        anyProject, // pieces spoken at once (at most 16), not more of them

	"provider":       trustedProject,
	"base_url":       trustedProject,
	"api_key_env":    trustedProject, // and then only a provider's own variable (restrictProject)
	"approval":       trustedProject,
	"backups":        trustedProject,
	"models.*.price": trustedProject, // a lower price would hide what a run costs
	"notes.path":     trustedProject,
	"notes.space":    trustedProject,
	"mcp.servers":    trustedProject,
	"mcp.timeout":    trustedProject,
	"tts.base_url":   trustedProject,
	"hooks":          trustedProject, // programs: run in the sandbox once trusted
	"lsp":            trustedProject, // language servers: programs, in the sandbox

	"files.allow_secrets": userOnly,
	"git":                 userOnly,
	"mcp.serve_token":     userOnly,
	"mcp.unsandboxed":     userOnly,
	"notes.database_url":  userOnly,
	"notes.embeddings":    userOnly,
	"permissions":         userOnly,
	"programs":            userOnly,
	"shell":               userOnly,
	"web":                 userOnly, // allow_hosts; search and search_url, since the backend receives every query

	"max_iterations":          raiseNeedsTrust,
	"tool_timeout":            raiseNeedsTrust,
	"model_timeout":           raiseNeedsTrust,
	"stdin_timeout":           raiseNeedsTrust,
	"retry.attempts":          raiseNeedsTrust,
	"retry.max_time":          raiseNeedsTrust,
	"tree.budget":             raiseNeedsTrust,
	"files.read_limit":        raiseNeedsTrust,
	"context_window":          raiseNeedsTrust,
	"models.*.context_window": raiseNeedsTrust,
	"reasoning":               raiseNeedsTrust,
	"models.*.reasoning":      raiseNeedsTrust,
	"tools.notes":             raiseNeedsTrust, // turning the note tools back on
	"tts.provider":            raiseNeedsTrust, // espeak (offline) always; gemini sends the text to Google

	"chat.notify": raiseNeedsTrust, // off always; ringing over the user's choice needs trust
	// Sub-agents at once: more of them hit the person's provider harder
	// (rate limits, spend per minute), so a project may only lower it.
	"agents.max_parallel": raiseNeedsTrust,
}

// classify finds the entry of settingClasses that covers key: its name
// and its length in key parts (0 and unclassified when none does).
func classify(key toml.Key) (rule string, parts int, class keyClass) {
	for name, c := range settingClasses {
		p := strings.Split(name, ".")
		if len(p) > len(key) || len(p) <= parts {
			continue
		}
		if !slices.EqualFunc(p, key[:len(p)], func(r, k string) bool { return r == "*" || r == k }) {
			continue
		}
		rule, parts, class = name, len(p), c
	}
	return rule, parts, class
}

// raised reports whether the project's value of the raiseNeedsTrust
// setting key (its rule in settingClasses) asks for more than the user's
// own settings gave: c is the configuration with the project's file,
// before the one without it.
func raised(rule string, key toml.Key, c, before *Config) bool {
	switch rule {
	case "context_window":
		return windowRaised(c.ContextWindow, before.ContextWindow, before.ContextWindow)
	case "models.*.context_window":
		old := before.Models[key[1]].ContextWindow
		return windowRaised(c.Models[key[1]].ContextWindow, old, cmp.Or(old, before.ContextWindow))
	case "reasoning":
		return reasoningRaised(c.Reasoning, before.Reasoning, before.Reasoning)
	case "models.*.reasoning":
		old := before.Models[key[1]].Reasoning
		return reasoningRaised(c.Models[key[1]].Reasoning, old, cmp.Or(old, before.Reasoning))
	case "tools.notes":
		return c.NotesOn() && !before.NotesOn()
	case "tts.provider":
		return c.TTS.Provider != before.TTS.Provider && !offlineSpeech(c.TTS.Provider)
	case "chat.notify":
		return notifyRaised(c.Chat.Notify, before.Chat.Notify)
	}
	return fieldInt(c, key) > fieldInt(before, key)
}

// windowRaised reports whether a project's context window v raises the
// user's: old is the user's value of the same setting, user the window
// their settings give. 0 is the model's own window, whose size is not
// known here (a table, or the server says it), so a project may only
// keep the setting or lower a window the user set themselves.
func windowRaised(v, old, user int) bool {
	return v != old && (v == 0 || user == 0 || v > user)
}

// reasoningLevels are the reasoning levels from the least thinking to
// the most. "" (the provider's default) has no place among them: Gemini
// 2.5 and OpenAI's reasoning models think by default, others do not. So
// a project may always turn thinking off, may lower a level the user
// set, and may not ask for the provider's default over the user's level.
var reasoningLevels = []string{"off", "low", "medium", "high"}

// reasoningRaised reports whether a project's level v raises the user's:
// old is the user's value of the same setting, user the level their
// settings give.
func reasoningRaised(v, old, user string) bool {
	switch {
	case v == old || v == "off":
		return false
	case v == "" || user == "":
		return true
	}
	return slices.Index(reasoningLevels, v) > slices.Index(reasoningLevels, user)
}

// offlineSpeech reports whether tts.provider names the speech engine that
// runs on this machine, sending the text nowhere.
func offlineSpeech(provider string) bool {
	switch strings.ToLower(strings.TrimSpace(provider)) {
	case "espeak", "espeak-ng":
		return true
	}
	return false
}
