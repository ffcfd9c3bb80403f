package config

import (
	"maps"
	"os"
	"slices"
	"strings"
)

// How an MCP server is shown to a person deciding to trust it (the trust
// question) or checking it (agent mcp list): everything that will run or
// be sent, as written in its config, so that ${TOKEN} stays ${TOKEN}
// (what it names is shown, never its value), and quoted as a shell would
// need it, so that an argument holding spaces or quotes cannot read as
// several, nor several as one.

// CommandLine is what the server runs or where it connects, on one line:
// for a program, its environment and command line as a shell line
// (GITHUB_TOKEN="${GITHUB_TOKEN}" npx -y server); for a URL, the URL and
// each header in curl's form (https://host/mcp -H "Authorization: Bearer ${TOKEN}").
func (s MCPServer) CommandLine() string {
	var parts []string
	if s.Command == "" {
		parts = append(parts, shellWord(s.URL))
		for _, k := range slices.Sorted(maps.Keys(s.Headers)) {
			parts = append(parts, "-H", shellWord(k+": "+s.Headers[k]))
		}
		return strings.Join(parts, " ")
	}
	for _, k := range slices.Sorted(maps.Keys(s.Env)) {
		parts = append(parts, shellWord(k)+"="+shellWord(s.Env[k]))
	}
	cmd := shellWord(s.Command)
	if cmd == s.Command && strings.Contains(cmd, "=") {
		cmd = singleQuote(cmd) // a shell would take NAME=x first for a variable
	}
	parts = append(parts, cmd)
	for _, a := range s.Args {
		parts = append(parts, shellWord(a))
	}
	return strings.Join(parts, " ")
}

// Markers that stand for a variable reference while a value is taken
// apart; a value holding them is quoted whole.
const refOpen, refClose = "\x00", "\x01"

// shellWord quotes s as one POSIX shell word with the meaning the agent
// gives it: the agent expands $VAR and ${VAR} from its environment (as
// .mcp.json files expect), so a value holding references is written in
// double quotes with each reference as ${NAME}, which a shell expands the
// same way; any other value that is not plainly one word is written in
// single quotes, which a shell takes literally. The project's one shell
// quoting helper.
func shellWord(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool { return !plainShellRune(r) }) < 0 {
		return s
	}
	if strings.ContainsAny(s, refOpen+refClose) {
		return singleQuote(s)
	}
	// os.Expand is how the agent reads the value (see MCPLaunches): the
	// markers stand where it would put each variable's value.
	marked := os.Expand(s, func(name string) string { return refOpen + name + refClose })
	if !strings.Contains(marked, refOpen) {
		return singleQuote(marked)
	}
	var b strings.Builder
	b.WriteByte('"')
	for marked != "" {
		lit, rest, found := strings.Cut(marked, refOpen)
		b.WriteString(strings.NewReplacer(`\`, `\\`, `"`, `\"`, "$", `\$`, "`", "\\`").Replace(lit))
		if !found {
			break
		}
		name, after, _ := strings.Cut(rest, refClose)
		b.WriteString("${" + name + "}")
		marked = after
	}
	b.WriteByte('"')
	return b.String()
}

// singleQuote writes s in single quotes; a quote inside is closed,
// escaped with a backslash and reopened.
func singleQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// plainShellRune reports a character that needs no quoting in a shell
// word.
func plainShellRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("@%+=:,./_-", r)
}
