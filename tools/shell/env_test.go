package shell

import (
	"os"
	"strings"
	"testing"
)

// TestTokensNotInTheSandboxEnvironment: a token recognisable by its form
// does not reach a command, whatever its variable is called.
func TestTokensNotInTheSandboxEnvironment(t *testing.T) {
	needBwrap(t)
	const token = "ghp_" + "aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6"
	tool := New(project(t, nil), Options{Env: append(os.Environ(), "GH_ENTERPRISE_CRED="+token, "DEPLOY_HEADER=Bearer "+token, "SK_NAME=sk-1234")})
	res := runIn(t, tool, "env")
	if strings.Contains(res.Content, token[:12]) {
		t.Errorf("a token reached the command:\n%s", short(res.Content))
	}
	if !strings.Contains(res.Content, "SK_NAME=sk-1234") {
		t.Errorf("a value that only starts like a token was removed: %q", short(res.Content))
	}
}
