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
