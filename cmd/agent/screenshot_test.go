package main

import (
	"encoding/xml"
	"flag"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/agentcli/agent/agent/llm/llmtest"
)

var (
	screenshotOut   = flag.String("screenshot", "", "write the picture of the chat (an SVG) to this file: make screenshot")
	screenshotAgent = flag.String("screenshot-agent", "", "the agent binary the picture shows (default: this test binary)")
)

// The conversation of the picture: a scripted model answering from a fake
// Gemini server on 127.0.0.1, so the picture is the same on every machine
// and needs no key.
const (
	shotMain = `package main

import (
	"fmt"
	"os"
)

func main() {
	name := "world"
	if len(os.Args) > 1 {
		name = os.Args[1]
	}
	fmt.Printf("Hello, %s!\n", name)
}
`
	shotRead   = `Let me read it first.<tool_call name="read_file"><file_path>main.go</file_path></tool_call>`
	shotAnswer = "It is a one-file **greeting** program:\n\n" +
		"- `main.go` takes a name from its first argument (`world` when none is given)\n" +
		"- and prints `Hello, NAME!`\n\n" +
		"| file | lines | does |\n|:--|--:|:--|\n| main.go | 14 | greets one name |\n"
	shotEdit = "I will loop over every argument instead.<tool_call name=\"write_file\">" +
		"<operation_type>replace</operation_type><file_path>main.go</file_path><old_text>\n" +
		"\tname := \"world\"\n\tif len(os.Args) > 1 {\n\t\tname = os.Args[1]\n\t}\n\tfmt.Printf(\"Hello, %s!\\n\", name)\n" +
		"</old_text><content>\n" +
		"\tnames := os.Args[1:]\n\tif len(names) == 0 {\n\t\tnames = []string{\"world\"}\n\t}\n" +
		"\tfor _, name := range names {\n\t\tfmt.Printf(\"Hello, %s!\\n\", name)\n\t}\n" +
		"</content></tool_call>"
)

// TestChatScreenshot draws docs/chat.svg from the real chat in a real
// terminal (tmux): `make screenshot` runs it with -screenshot=FILE. The
// picture waits on the approval question of a write, with a finished
// read card and a markdown answer above it.
func TestChatScreenshot(t *testing.T) {
	if *screenshotOut == "" {
		t.Skip("draws the README's picture of the chat: make screenshot (-screenshot=FILE)")
	}
	const cols, rows = 100, 46
	c := startTmux(t, tmuxOptions{width: cols, height: rows,
		answers: []llmtest.Answer{
			llmtest.Say(shotRead).WithUsage(6850, 24),
			llmtest.Say(shotAnswer).WithUsage(7230, 96),
			llmtest.Say(shotEdit).WithUsage(7480, 140),
		},
		env: []string{"COLORFGBG=15;0", "EDITOR=true"},
		command: func(bin string) []string {
			if *screenshotAgent != "" {
				return []string{*screenshotAgent}
			}
			return []string{bin}
		}})
	c.write("main.go", shotMain)
	c.waitPrompt()
	c.typeLine("what does this project do?")
	c.waitFor("the answer", "greets one name")
	c.typeLine("make it greet every name it is given")
	c.waitFor("the question", "Allow write_file?")
	c.idle()
	shot := c.tmux("capture-pane", "-e", "-p", "-t", "0")
	if !strings.Contains(shot, "\x1b[") {
		t.Fatalf("the capture has no colours:\n%s", shot)
	}
	if err := os.WriteFile(*screenshotOut, []byte(screenSVG(shot, cols, rows)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestScreenSVG checks the picture drawn from a captured screen: colours
// of both tables and 24-bit ones, attributes, backgrounds, wide
// characters holding two cells, markup escaped, and hyperlinks dropped.
func TestScreenSVG(t *testing.T) {
	capture := "\x1b[1;38;5;196mred\x1b[0m <a&b>\n" +
		"\x1b[32m✓\x1b[39m 界x\n" +
		"\x1b[48;2;1;2;3m bg \x1b[49m\x1b[7mrev\x1b[27m\n" +
		"\x1b]8;;https://example.com\x1b\\link\x1b]8;;\x1b\\ \x1b[2;3;4mdim\n"
	svg := screenSVG(capture, 12, 4)
	dec := xml.NewDecoder(strings.NewReader(svg))
	for {
		if _, err := dec.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, svg)
		}
	}
	for _, want := range []string{
		`fill="#ff0000" font-weight="bold">red</text>`, // 196 of the 256 colours
		`>&lt;a&amp;b&gt;</text>`,
		`fill="#b5bd68">✓</text>`, // green of the 16
		// 界 takes columns 2 and 3, so x is at column 4: 16 + 4×8.4.
		`<text x="49.6" y="75.5" textLength="8.4" lengthAdjust="spacingAndGlyphs" fill="#c5c8c6">x</text>`,
		`fill="#010203"/>`,          // a 24-bit background
		`fill="#1d1f21">rev</text>`, // reverse video: the background's colour
		`>link</text>`,
		`fill-opacity="0.6" font-style="italic" text-decoration="underline">dim</text>`,
	} {
		if !strings.Contains(svg, want) {
			t.Errorf("the SVG lacks %s:\n%s", want, svg)
		}
	}
	if strings.Contains(svg, "example.com") {
		t.Errorf("the hyperlink's address is drawn:\n%s", svg)
	}
}
