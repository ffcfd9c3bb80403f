package xmlcall_test

import (
	"fmt"
	"os"

	"github.com/agentcli/agent/agent/xmlcall"
)

func ExampleRender() {
	_ = xmlcall.Render(os.Stdout,
		xmlcall.Response{ID: "1", Name: "read_file",
			Params:   []xmlcall.Param{{Name: "file_path", Value: "README.md"}},
			Metadata: []xmlcall.Attr{{Name: "size", Value: "16"}, {Name: "lines", Value: "1"}},
			Content:  "# Project Title\n"},
		xmlcall.Response{ID: "2", Name: "read_file",
			Params: []xmlcall.Param{{Name: "file_path", Value: "nonexistent.md"}},
			Code:   "FILE_NOT_FOUND", Message: "File not found: nonexistent.md"},
	)
	// Output:
	// <tool_response id="1">
	//   <tool_call name="read_file">
	//     <file_path>README.md</file_path>
	//   </tool_call>
	//   <result>
	//     <metadata size="16" lines="1"/>
	//     <content><![CDATA[# Project Title
	// ]]></content>
	//   </result>
	// </tool_response>
	// <tool_response id="2">
	//   <tool_call name="read_file">
	//     <file_path>nonexistent.md</file_path>
	//   </tool_call>
	//   <result>
	//     <error code="FILE_NOT_FOUND">File not found: nonexistent.md</error>
	//   </result>
	// </tool_response>
}

func ExampleParse() {
	reply := `I'll read it.
<tool_call name="read_file" id="1"><file_path>README.md</file_path></tool_call>`
	calls, errs := xmlcall.Parse(reply, nil)
	for _, c := range calls {
		fmt.Println(c.Name, c.ID, c.Args()["file_path"])
	}
	fmt.Println(len(errs), "errors")
	// Output:
	// read_file 1 README.md
	// 0 errors
}
