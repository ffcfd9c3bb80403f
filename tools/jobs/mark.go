package jobs

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"os"
	"strconv"
)

// MarkVar is the environment variable that marks a job's processes.
//
// The database and the logs sit in the project, which may be a cloned
// repository shipping an .agent folder of its own: a row there can name
// any pid. So the agent signals no process for a job (agent jobs stop,
// the leftovers of a lost job) unless the process carries the job's
// mark, a random token made when the job is recorded and set by the
// agent when it starts the command: a row cannot give it to a process
// that already runs.
const MarkVar = "AGENT_JOB"

// Mark is the environment entry that marks job j's processes.
func (j Job) Mark() string { return MarkVar + "=" + j.Token }

// Marks reports whether process pid carries job j's mark.
func (j Job) Marks(pid int) bool {
	if len(j.Token) < 32 {
		return false // no token, or one too short to be ours
	}
	env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	for _, kv := range bytes.Split(env, []byte{0}) {
		if string(kv) == j.Mark() {
			return true
		}
	}
	return false
}

// newToken is a job's random mark.
func newToken() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}
