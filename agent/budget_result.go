package agent

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/agentcli/agent/agent/xmlcall"
)

// fitResponses cuts tool outputs that would not fit the room the window
// leaves (ReadBudget, shared by the turn's results), each at a line break,
// with a note saying how to get the rest. The file tools size whole-file
// reads themselves; this is the net for every other tool (a search with
// thousands of hits, a command's long output, an MCP tool). A nil Budget
// or an unknown window leaves rs as they are.
func (b *Budget) fitResponses(rs []xmlcall.Response) []xmlcall.Response {
	if b == nil || b.Window <= 0 || len(rs) == 0 {
		return rs
	}
	room := b.ReadBudget()
	total := 0
	for _, r := range rs {
		total += len(r.Content)
	}
	if total <= room {
		return rs
	}
	share := max(room/len(rs), 1024)
	for i := range rs {
		c := rs[i].Content
		if len(c) <= share {
			continue
		}
		cut := share
		for cut > 0 && !utf8.RuneStart(c[cut]) {
			cut--
		}
		if j := strings.LastIndexByte(c[:cut], '\n'); j > share/2 {
			cut = j + 1
		}
		rs[i].Content = c[:cut] + fmt.Sprintf("\n[output cut here to fit the context window: %d of %d bytes shown; ask for a smaller part (a line range, a narrower pattern or command) to see the rest]\n", cut, len(c))
	}
	return rs
}
