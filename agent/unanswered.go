package agent

import (
	"errors"
	"fmt"
	"strings"

	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/xmlcall"
	"github.com/agentcli/agent/tools"
)

// notRunMessage answers a call that was left without a response because
// the run ended (interrupted, or failed) before it ran.
const notRunMessage = "not run: the run was interrupted before this call ran"

// notRunResult is the answer to a call of a reply that the run never got
// to.
func notRunResult(c xmlcall.Call) CallResult {
	return CallResult{ID: c.ID, Tool: c.Name, Params: c.Params,
		Result: tools.Result{Code: tools.CodeSkipped, Message: notRunMessage}}
}

// closeReply answers a reply whose calls were only partly run because the
// run is ending with an error: the results so far, and a TOOL_SKIPPED
// response for each call not reached. Without it the saved conversation
// would end on calls with no <tool_response>, and a continued session
// would send the next prompt right after them, letting the model believe
// its writes happened. It returns the results it added.
func (a *Agent) closeReply(items []item, done []CallResult, iter int, emit func(Event)) ([]CallResult, error) {
	var rest []CallResult
	for _, it := range items[len(done):] {
		var cr CallResult
		if it.err != nil {
			cr = brokenResult(it.err)
		} else {
			cr = notRunResult(*it.call)
		}
		rest = append(rest, cr)
		emit(Event{Type: EventResult, Iteration: iter, Result: &cr})
	}
	return rest, a.appendResponses(append(append([]CallResult{}, done...), rest...))
}

// appendResponses writes results to the session as one user turn.
func (a *Agent) appendResponses(results []CallResult) error {
	if len(results) == 0 {
		return nil
	}
	var turn strings.Builder
	if err := xmlcall.Render(&turn, responses(results)...); err != nil {
		return fmt.Errorf("render tool responses: %w", err)
	}
	return a.Session.Append(llm.Message{Role: llm.User, Text: turn.String()})
}

// answerDangling repairs a resumed conversation that ends with a reply
// whose calls got no response (a run killed before it could answer them):
// each call is answered TOOL_SKIPPED before the new prompt is added.
func (a *Agent) answerDangling() error {
	msgs := a.Session.Messages()
	if len(msgs) == 0 || msgs[len(msgs)-1].Role != llm.Assistant {
		return nil
	}
	calls, errs := xmlcall.Parse(msgs[len(msgs)-1].Text, a.Tools.ParamNames)
	var results []CallResult
	for _, c := range calls {
		results = append(results, notRunResult(c))
	}
	for _, e := range errs {
		results = append(results, brokenResult(e))
	}
	if err := a.appendResponses(results); err != nil {
		return errors.Join(errors.New("answer the calls left without response"), err)
	}
	return nil
}
