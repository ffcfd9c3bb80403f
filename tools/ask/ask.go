// Package ask is ask_user: the model asks the person a question,
// multiple choice or in their own words, instead of guessing. The
// question goes to whoever the loop put in the call's context (the
// chat's choice list, agent run's terminal); where nobody can answer,
// it is answered at once with a refusal the model can act on.
package ask

import (
	"context"
	_ "embed"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agentcli/agent/tools"
)

//go:embed ask_user.md
var description string

// Name is the tool's name.
const Name = "ask_user"

// The bounds of a question: what fits a choice list on a screen.
const (
	maxQuestion = 2000 // characters
	maxOptions  = 20
	maxOption   = 200 // characters
)

// wait bounds how long a question waits for its answer. A person is
// asked, as with an approval, and may be away for a while: the tool's
// limit, not the registry's default meant for work, applies.
const wait = 24 * time.Hour

// NoOneToAnswer is the answer where nobody can answer (agent run
// without a terminal, a script): given at once, never waited on.
const NoOneToAnswer = "no one can answer: there is no person at a terminal to ask; decide yourself, go on, and say in your answer what you assumed"

// Args are ask_user's parameters.
type Args struct {
	Question string `json:"question" jsonschema:"the question, in a sentence or a few"`
	Options  string `json:"options,omitempty" jsonschema:"the answers to choose from, one per line; leave out for an answer in the user's own words"`
	Multiple bool   `json:"multiple,omitempty" jsonschema:"true lets the user choose several options"`
}

// New returns ask_user. It writes nothing, so plan mode allows it; it
// is named on demand, and not served (agent serve has nobody to ask).
func New() tools.Tool {
	return tools.New(Name, description, askUser, tools.OnDemand(), tools.NotServed(), tools.Timeout(wait))
}

func askUser(ctx context.Context, a Args) (tools.Result, error) {
	q, bad := question(a)
	if bad != nil {
		return *bad, nil
	}
	u := tools.UserAskerOf(ctx)
	if u == nil {
		return tools.Result{Message: NoOneToAnswer, Metadata: []tools.Attr{{Name: "answered", Value: "no"}}}, nil
	}
	ans, err := u.AskUser(ctx, q)
	if err != nil {
		return tools.Result{}, fmt.Errorf("ask the user: %w", err)
	}
	return answer(ans), nil
}

// question checks a call's arguments and makes them the question put to
// the person.
func question(a Args) (tools.UserQuestion, *tools.Result) {
	bad := func(format string, args ...any) (tools.UserQuestion, *tools.Result) {
		res := tools.Errorf(tools.CodeSchemaInvalid, Name+": "+format, args...)
		return tools.UserQuestion{}, &res
	}
	q := tools.UserQuestion{Question: strings.TrimSpace(a.Question), Multiple: a.Multiple}
	switch n := utf8.RuneCountInString(q.Question); {
	case n == 0:
		return bad("the question is empty")
	case n > maxQuestion:
		return bad("the question is %d characters long; ask it in at most %d", n, maxQuestion)
	}
	for _, line := range strings.Split(a.Options, "\n") {
		line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "- "))
		if line == "" {
			continue
		}
		if n := utf8.RuneCountInString(line); n > maxOption {
			return bad("option %d is %d characters long; keep an option to one short line (at most %d)", len(q.Options)+1, n, maxOption)
		}
		q.Options = append(q.Options, line)
	}
	if len(q.Options) > maxOptions {
		return bad("%d options are too many to choose from; offer at most %d", len(q.Options), maxOptions)
	}
	if q.Multiple && len(q.Options) < 2 {
		return bad("multiple is true but there are fewer than two options to choose from; give the options one per line")
	}
	return q, nil
}

// answer is the person's answer as the model reads it: in the message,
// and exactly as given in the content.
func answer(ans tools.UserAnswer) tools.Result {
	switch {
	case ans.Declined:
		return tools.Result{Message: "the user declined to answer; decide yourself, go on, and say in your answer what you assumed",
			Metadata: []tools.Attr{{Name: "answered", Value: "no"}}}
	case len(ans.Chosen) > 0:
		quoted := make([]string, len(ans.Chosen))
		for i, c := range ans.Chosen {
			quoted[i] = strconv.Quote(c)
		}
		return tools.Result{Message: "the user chose " + strings.Join(quoted, ", "),
			Metadata: []tools.Attr{{Name: "answered", Value: "chose"}}, Content: strings.Join(ans.Chosen, "\n") + "\n"}
	}
	return tools.Result{Message: "the user answered in their own words (below)",
		Metadata: []tools.Attr{{Name: "answered", Value: "wrote"}}, Content: ans.Text + "\n"}
}
