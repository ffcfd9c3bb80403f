package sandbox

import "context"

type runKey struct{}

// WithRun returns a context whose writes are recorded as part of run id:
// everything the agent writes for one user message (all the model
// replies of that turn, each its own change set), which undo and redo
// treat as one step. The caller (the conversation) sets it per turn.
func WithRun(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, runKey{}, id)
}

// RunOf returns the run id of ctx, or "" (the write's change set is then
// its run).
func RunOf(ctx context.Context) string {
	id, _ := ctx.Value(runKey{}).(string)
	return id
}

type personKey struct{}

// ForPerson returns a context whose read_file calls read for the person,
// not for the model: a chat's @path attachment. Such a read also refuses
// a file with more than one name, as the agent's own readers do (see
// linkedRefusal): the person typed a name, not the inode's other one.
func ForPerson(ctx context.Context) context.Context {
	return context.WithValue(ctx, personKey{}, true)
}

// IsForPerson reports a read asked for by ForPerson.
func IsForPerson(ctx context.Context) bool {
	v, _ := ctx.Value(personKey{}).(bool)
	return v
}
