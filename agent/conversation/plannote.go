package conversation

import (
	"strings"

	"github.com/agentcli/agent/agent"
)

// The lines that tell the model plan mode changed, added to the next
// user turn: the system prompt stays byte-identical for the provider's
// cache, so a change of mode is news in the conversation, and the model
// plans at once instead of finding out from a refused write.
const (
	planOnNote  = "[Plan mode is on: nothing may be changed now. Read what you need and describe your plan; the user will switch modes to let you carry it out.]"
	planOffNote = "[Plan mode is off: you may make changes again, as the approval settings allow.]"
)

// withPlanNote adds to text the line that tells the model plan mode was
// turned on or off since it was last told (a new session has been told
// nothing: plan mode is news to it).
func (c *Conversation) withPlanNote(text string) string {
	plan := c.Policy() == agent.PolicyPlan
	if plan == c.planTold {
		return text
	}
	c.planTold = plan
	note := planOffNote
	if plan {
		note = planOnNote
	}
	return text + "\n\n" + note
}

// WithoutPlanNote is a user turn as the person wrote it, without the
// line the conversation added to tell the model of plan mode.
func WithoutPlanNote(text string) string {
	for _, n := range []string{planOnNote, planOffNote} {
		text = strings.TrimSuffix(text, "\n\n"+n)
	}
	return text
}
