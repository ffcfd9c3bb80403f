package tools

import "context"

// CallInfo identifies the call a tool is running for. The agent loop puts
// it in the context; tools that keep records (backups, audit) read it.
type CallInfo struct {
	SessionID string
	CallID    string
	// ChangeSet groups everything one model reply wrote, so that undo
	// restores a whole reply at once.
	ChangeSet string
}

type callInfoKey struct{}

// WithInfo returns a context carrying info.
func WithInfo(ctx context.Context, info CallInfo) context.Context {
	return context.WithValue(ctx, callInfoKey{}, info)
}

// Info returns the CallInfo of ctx, or the zero value.
func Info(ctx context.Context) CallInfo {
	info, _ := ctx.Value(callInfoKey{}).(CallInfo)
	return info
}

type outputKey struct{}

// WithOutput returns a context whose tools can stream what they produce
// as it comes (a command's output) to f, which the loop turns into
// events for the interface. f must not keep b.
func WithOutput(ctx context.Context, f func(b []byte)) context.Context {
	return context.WithValue(ctx, outputKey{}, f)
}

// Output returns the streaming function of ctx, or one that drops
// everything.
func Output(ctx context.Context) func(b []byte) {
	if f, ok := ctx.Value(outputKey{}).(func([]byte)); ok {
		return f
	}
	return func([]byte) {}
}
