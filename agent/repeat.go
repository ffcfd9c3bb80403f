package agent

import (
	"crypto/sha256"
	"slices"
	"strings"

	"github.com/agentcli/agent/tools"
)

// repeatLimit is how many times in a row a call may get the same result
// before the loop stops running it: a model that resends a call which keeps
// failing the same way (or keeps reading the same unchanged file) is stuck,
// and running it again only burns iterations.
const repeatLimit = 2

// repeats remembers, for each distinct call (tool and parameters) of a
// run, the last result it got and how many times in a row it got it.
type repeats struct {
	seen map[[32]byte]repeatState
}

type repeatState struct {
	result [32]byte
	times  int
}

func newRepeats() *repeats { return &repeats{seen: make(map[[32]byte]repeatState)} }

// callKey identifies a call by its tool and parameter values after each
// parameter's whitespace rule, so that re-indenting a value does not make
// a stuck call look new.
func callKey(def tools.Definition, raw map[string]string) [32]byte {
	names := make([]string, 0, len(raw))
	for n := range raw {
		names = append(names, n)
	}
	slices.Sort(names)
	h := sha256.New()
	h.Write([]byte(def.Name))
	for _, n := range names {
		v := raw[n]
		if p, ok := def.Param(n); ok {
			v = tools.Normalize(p, v)
		}
		h.Write([]byte{0})
		h.Write([]byte(n))
		h.Write([]byte{0})
		h.Write([]byte(v))
	}
	var k [32]byte
	h.Sum(k[:0])
	return k
}

func resultKey(r tools.Result) [32]byte {
	var b strings.Builder
	b.WriteString(r.Code)
	b.WriteByte(0)
	b.WriteString(r.Message)
	b.WriteByte(0)
	for _, a := range r.Metadata {
		b.WriteString(a.Name + "=" + a.Value + "\x00")
	}
	b.WriteString(r.Content)
	return sha256.Sum256([]byte(b.String()))
}

// stuck reports whether the call with key k already got the same result
// repeatLimit times in a row.
func (r *repeats) stuck(k [32]byte) bool {
	return r.seen[k].times >= repeatLimit
}

// record notes the result the call with key k just got.
func (r *repeats) record(k [32]byte, res tools.Result) {
	rk := resultKey(res)
	st := r.seen[k]
	if st.times > 0 && st.result == rk {
		st.times++
	} else {
		st = repeatState{result: rk, times: 1}
	}
	r.seen[k] = st
}

func repeatedResult(name string) tools.Result {
	return tools.Errorf(tools.CodeRepeated, "%s was not run: this exact call already got the same result twice in a row and would again; use that result, or change the parameters or the approach", name)
}
