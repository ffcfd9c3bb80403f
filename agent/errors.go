package agent

import "errors"

// ErrMaxIterations is returned by Run when the model was still calling
// tools after the last allowed iteration. The Outcome holds everything done
// so far; the conversation can be continued.
var ErrMaxIterations = errors.New("stopped at the iteration limit without a final answer")

// ErrEmptyPrompt is returned by Run for a prompt with no text.
var ErrEmptyPrompt = errors.New("empty prompt")

// ErrNoSession is returned when a session to resume does not exist.
var ErrNoSession = errors.New("no such session")

// ErrEmptyReply is returned when the model's reply held nothing at all:
// no text and no call.
var ErrEmptyReply = errors.New("the model returned an empty reply")

// ErrNoImages is returned when an image is attached for a model that
// cannot see images.
var ErrNoImages = errors.New("this model cannot see images")

// HaltError ends a run after a call whose result says the turn must stop
// (tools.Result.Halt): something the person must look at before the
// model goes on. The call's answer is in the session, for the model's
// next turn.
type HaltError struct {
	Tool   string
	Reason string
}

func (e *HaltError) Error() string { return e.Tool + " stopped the turn: " + e.Reason }
