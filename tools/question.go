package tools

import "context"

// UserQuestion is a question the model puts to the person (ask_user).
type UserQuestion struct {
	Question string
	// Options are the answers offered, in order; none for a question
	// answered in the person's own words only.
	Options []string
	// Multiple lets the person choose several options.
	Multiple bool
}

// UserAnswer is the person's answer to a UserQuestion: the options
// chosen, or their own words, or neither when they declined.
type UserAnswer struct {
	Chosen []string
	Text   string
	// Declined is true when the person chose not to answer.
	Declined bool
}

// UserAsker puts the model's questions to a person: the chat's choice
// list, agent run's question on the terminal. Ask waits for the answer;
// cancelling ctx ends it at once with ctx's error.
type UserAsker interface {
	AskUser(ctx context.Context, q UserQuestion) (UserAnswer, error)
}

type userAskerKey struct{}

// WithUserAsker returns a context whose tools can ask the person through
// u. The loop puts the conversation's asker there; where nobody can
// answer it puts none.
func WithUserAsker(ctx context.Context, u UserAsker) context.Context {
	return context.WithValue(ctx, userAskerKey{}, u)
}

// UserAskerOf returns the asker of ctx; nil when nobody can answer.
func UserAskerOf(ctx context.Context) UserAsker {
	u, _ := ctx.Value(userAskerKey{}).(UserAsker)
	return u
}
