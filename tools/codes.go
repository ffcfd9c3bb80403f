package tools

// Error codes of the protocol (protocol.md §3). A Result carries one of
// these in Code when the model's call failed in a way the model can fix.
const (
	CodeCallIncomplete = "CALL_INCOMPLETE"
	CodeCallMalformed  = "CALL_MALFORMED"
	CodeToolUnknown    = "TOOL_UNKNOWN"
	CodeSchemaInvalid  = "TOOL_SCHEMA_INVALID"
	CodePolicyDenied   = "TOOL_POLICY_DENIED"
	CodeTimeout        = "TOOL_TIMEOUT"
	CodeSkipped        = "TOOL_SKIPPED"
	// CodeInterrupted answers a call the person stopped while it ran
	// (Ctrl+C, Esc): it did run, and may have changed things.
	CodeInterrupted        = "TOOL_INTERRUPTED"
	CodeProviderError      = "TOOL_PROVIDER_ERROR"
	CodePathOutsideRoot    = "PATH_OUTSIDE_ROOT"
	CodeRepeated           = "TOOL_REPEATED"
	CodeFileStale          = "FILE_STALE"
	CodeNoMatch            = "NO_MATCH"
	CodeFileNotFound       = "FILE_NOT_FOUND"
	CodeFileExists         = "FILE_EXISTS"
	CodeFileTooLarge       = "FILE_TOO_LARGE"
	CodeUnsupportedType    = "UNSUPPORTED_FILE_TYPE"
	CodeInvalidRange       = "INVALID_RANGE"
	CodeContentPlaceholder = "CONTENT_PLACEHOLDER"
)
