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
