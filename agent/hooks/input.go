package hooks

import (
	"encoding/json"
)

// Input is what the agent knows of an event, for the hooks it fires.
type Input struct {
	Event          Event
	SessionID      string
	TranscriptPath string // the session's log
	// Tool and ToolInput are the call's tool and its validated
	// parameters, by the agent's names (PreToolUse, PostToolUse); a hook
	// of the claude format is given Claude Code's (claude.go).
	Tool      string
	ToolInput map[string]any
	// ToolResponse is what the call answered (PostToolUse).
	ToolResponse *Response
	// Prompt is the person's message (UserPromptSubmit).
	Prompt string
	// Message is what the agent waits for, and Kind which wait it is
	// ("approval", "question", "done") (Notification).
	Message, Kind string
	// StopHookActive is true when the model goes on because a Stop (or
	// SubagentStop) hook asked it to (Stop, SubagentStop).
	StopHookActive bool
	// Answer is the model's last answer (Stop, SubagentStop).
	Answer string
	// Agent names the sub-agent that stopped (SubagentStop).
	Agent string
	// Trigger is "manual" (/compact) or "auto" (the window was full)
	// (PreCompact).
	Trigger string
	// Source is "startup", "resume" or "clear" (SessionStart).
	Source string
	// Reason is why the session ends: "exit", "clear" or "resume"
	// (SessionEnd).
	Reason string
}

// Response is a call's answer, as a PostToolUse hook is told it.
type Response struct {
	Code    string   `json:"code,omitempty"`
	Message string   `json:"message,omitempty"`
	Content string   `json:"content,omitempty"`
	Changed []string `json:"changed,omitempty"`
}

// payload is the JSON object a hook reads on standard input.
type payload struct {
	SessionID      string          `json:"session_id"`
	TranscriptPath string          `json:"transcript_path"`
	Cwd            string          `json:"cwd"`
	HookEventName  Event           `json:"hook_event_name"`
	Prompt         string          `json:"prompt,omitempty"`
	ToolName       string          `json:"tool_name,omitempty"`
	ToolInput      json.RawMessage `json:"tool_input,omitempty"`
	ToolResponse   any             `json:"tool_response,omitempty"`
	Message        string          `json:"message,omitempty"`
	Kind           string          `json:"notification_type,omitempty"`
	StopHookActive *bool           `json:"stop_hook_active,omitempty"`
	LastMessage    string          `json:"last_assistant_message,omitempty"`
	AgentType      string          `json:"agent_type,omitempty"`
	Trigger        string          `json:"trigger,omitempty"`
	Source         string          `json:"source,omitempty"`
	Reason         string          `json:"reason,omitempty"`
}

// payloadOf is in as hook h reads it: the agent's tool names and
// parameters, or Claude Code's for the claude format.
func payloadOf(h Hook, in Input, dir string) []byte {
	p := payload{
		SessionID: in.SessionID, TranscriptPath: in.TranscriptPath, Cwd: dir, HookEventName: in.Event,
		Prompt: in.Prompt, Message: in.Message, Kind: in.Kind, LastMessage: in.Answer, AgentType: in.Agent,
		Trigger: in.Trigger, Source: in.Source, Reason: in.Reason,
	}
	if in.Event == Stop || in.Event == SubagentStop {
		active := in.StopHookActive
		p.StopHookActive = &active
	}
	if in.Event.HasTool() {
		name, input := in.Tool, in.ToolInput
		if h.Claude {
			name, input = toClaude(in.Tool, in.ToolInput, dir)
		}
		if input == nil {
			input = map[string]any{}
		}
		p.ToolName = name
		p.ToolInput, _ = json.Marshal(input) // values from JSON or validation: always encodable
		if in.ToolResponse != nil {
			p.ToolResponse = *in.ToolResponse
			if h.Claude {
				p.ToolResponse = claudeResponse(in.Tool, in.ToolInput, *in.ToolResponse, dir)
			}
		}
	}
	b, _ := json.Marshal(p)
	return b
}
