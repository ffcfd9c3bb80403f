// Package xmlcall implements the tool-call protocol of the agent: a
// streaming Scanner that finds <tool_call> blocks (with XML parameters, or
// the JSON object local models write inside a nameless <tool_call>, and the
// legacy [TOOL:name:{json}] form) in a model's reply as it arrives, and a
// renderer for the <tool_response> blocks sent back.
//
// Model output is not well-formed XML: code is written with raw < and &,
// calls are wrapped in markdown fences, replies are cut off mid-call. The
// Scanner is therefore not an XML parser but a small state machine that
// follows protocol.md §1 exactly, lenient where models are sloppy and
// strict where a mistake could corrupt a file (a call cut off before
// </tool_call> is never returned as a call).
//
// The package is a leaf: it imports only the standard library and etree.
package xmlcall
