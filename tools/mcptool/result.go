package mcptool

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentcli/agent/internal/termtext"
	"github.com/agentcli/agent/tools"
)

// render turns a server's answer into a Result: its text, a short note for
// each image, audio clip or resource, at most max bytes in all. The text is
// data from the server, and travels as the Result's content.
func render(server, tool string, r *mcp.CallToolResult, max int) tools.Result {
	var b strings.Builder
	add := func(s string) {
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		b.WriteString(s)
	}
	for _, c := range r.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			add(c.Text)
		case *mcp.ImageContent:
			add(fmt.Sprintf("[image %s, %d bytes, not shown]", untrustedLine(c.MIMEType, 60), len(c.Data)))
		case *mcp.AudioContent:
			add(fmt.Sprintf("[audio %s, %d bytes, not shown]", untrustedLine(c.MIMEType, 60), len(c.Data)))
		case *mcp.ResourceLink:
			add(fmt.Sprintf("[resource link %s %s]", untrustedLine(c.URI, 300), untrustedLine(c.Name, 80)))
		case *mcp.EmbeddedResource:
			if rc := c.Resource; rc != nil && rc.Text != "" {
				add(fmt.Sprintf("[resource %s]\n%s", untrustedLine(rc.URI, 300), rc.Text))
			} else if rc != nil {
				add(fmt.Sprintf("[resource %s %s, %d bytes, not shown]", untrustedLine(rc.URI, 300), untrustedLine(rc.MIMEType, 60), len(rc.Blob)))
			}
		}
		if b.Len() > max {
			break
		}
	}
	if b.Len() == 0 && r.StructuredContent != nil {
		if data, err := json.Marshal(r.StructuredContent); err == nil {
			b.Write(data)
		}
	}
	text := b.String()
	if r.IsError {
		return tools.Errorf(tools.CodeProviderError, "MCP server %s: tool %s answered with an error: %s", server, tool, untrustedLine(text, 500))
	}
	meta := []tools.Attr{{Name: "server", Value: server}, {Name: "tool", Value: tool}}
	msg := fmt.Sprintf("%s answered %d bytes", tool, len(text))
	if len(text) > max {
		meta = append(meta, tools.Attr{Name: "truncated", Value: "true"}, tools.Attr{Name: "size", Value: strconv.Itoa(len(text))})
		msg = fmt.Sprintf("%s answered more than %d bytes; the first %d are shown", tool, max, max)
		text = termtext.RunePrefix(text, max)
	}
	return tools.Result{Message: msg, Metadata: meta, Content: text}
}
