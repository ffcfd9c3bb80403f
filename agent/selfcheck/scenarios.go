package selfcheck

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/shell"
)

const selftestReadme = "# Self-check project\n\nA small project for the self-check.\nTODO: nothing to do\n"

// Tools checks the file tools: read, list, search and the sandbox.
func Tools(ctx context.Context, st *Checker) {
	st.setup(map[string]string{
		"README.md":    selftestReadme,
		"src/main.go":  "package selfcheck\n\nfunc main() {}\n\n// TODO: say hello\n",
		".gitignore":   "build/\n",
		"build/out.js": "console.log('built')\n",
		"image.png":    "\x89PNG\r\n\x1a\n\x00\x00",
		".git/config":  "[core]\n",
	})
	names := strings.Join(st.reg.Names(), " ")
	st.Check("the registry offers read_file, write_file, list_directory, search_files first",
		strings.HasPrefix(names+" ", "read_file write_file list_directory search_files "), "got %s", names)

	t := st.reply(ctx, `I'll look at the project first.
<tool_call name="list_directory" id="1"/>
<tool_call name="read_file" id="2"><file_path>README.md</file_path></tool_call>
<tool_call name="read_file" id="3">
  <file_path>README.md</file_path>
  <start_line>3</start_line>
  <end_line>4</end_line>
  <line_numbers>true</line_numbers>
</tool_call>
<tool_call name="search_files" id="4"><pattern>TODO</pattern></tool_call>
[TOOL:read_file:{"file_path":"src/main.go","start_line":1,"end_line":1}]`)
	if st.wantCode(t, "1", "list_directory lists the project", "") {
		res, _ := t.result("1")
		st.Check("the listing leaves out .gitignored files and .git", strings.Contains(res.Content, "README.md") &&
			strings.Contains(res.Content, "src/") && !strings.Contains(res.Content, "build") && !strings.Contains(res.Content, ".git/"),
			"listing:\n%s", res.Content)
	}
	if st.wantCode(t, "2", "read_file reads a whole file", "") {
		res, _ := t.result("2")
		st.Check("read_file returns the exact content and its metadata", res.Content == selftestReadme &&
			metaValue(res, "lines") == "4" && metaValue(res, "encoding") == "utf-8" && metaValue(res, "line_ending") == "lf",
			"content %q, metadata %v", res.Content, res.Metadata)
	}
	if st.wantCode(t, "3", "read_file reads a line range", "") {
		res, _ := t.result("3")
		want := "3| A small project for the self-check.\n4| TODO: nothing to do\n"
		st.Check("the range is numbered for planning a partial write", res.Content == want, "got %q", res.Content)
	}
	if st.wantCode(t, "4", "search_files finds a pattern", "") {
		res, _ := t.result("4")
		st.Check("search reports each match with path and line", strings.Contains(res.Content, "README.md:4: TODO") &&
			strings.Contains(res.Content, "src/main.go:5: // TODO") && metaValue(res, "matches") == "2", "got %q", res.Content)
	}
	if len(t.results) == 5 {
		st.Check("the legacy [TOOL:...] form runs too", t.results[4].Result.Content == "package selfcheck\n", "got %+v", t.results[4].Result)
	} else {
		st.Check("the legacy [TOOL:...] form runs too", false, "%d responses for 5 calls", len(t.results))
	}
	st.Check("the responses are well-formed XML", wellFormed(t.rendered) == nil, "%v", wellFormed(t.rendered))

	t = st.reply(ctx, `Some reads that must fail:
<tool_call name="read_file" id="5"><file_path>missing.md</file_path></tool_call>
<tool_call name="read_file" id="6"><file_path>../../etc/passwd</file_path></tool_call>
<tool_call name="read_file" id="7"><file_path>/etc/passwd</file_path></tool_call>
<tool_call name="read_file" id="8"><file_path>.git/config</file_path></tool_call>
<tool_call name="read_file" id="9"><file_path>image.png</file_path></tool_call>
<tool_call name="read_file" id="10"><path>README.md</path></tool_call>
<tool_call name="delete_file" id="11"><file_path>README.md</file_path></tool_call>
<tool_call name="read_file" id="12"><file_path>README.md</file_path><start_line>99</start_line></tool_call>`)
	st.wantCode(t, "5", "a missing file is FILE_NOT_FOUND", tools.CodeFileNotFound)
	st.wantCode(t, "6", "a path climbing out with .. is PATH_OUTSIDE_ROOT", tools.CodePathOutsideRoot)
	st.wantCode(t, "7", "an absolute path outside is PATH_OUTSIDE_ROOT", tools.CodePathOutsideRoot)
	st.wantCode(t, "8", "a file under .git is PATH_OUTSIDE_ROOT", tools.CodePathOutsideRoot)
	st.wantCode(t, "9", "a binary type is UNSUPPORTED_FILE_TYPE", tools.CodeUnsupportedType)
	st.wantCode(t, "10", "an unknown parameter is TOOL_SCHEMA_INVALID", tools.CodeSchemaInvalid)
	st.wantCode(t, "11", "an unknown tool is TOOL_UNKNOWN", tools.CodeToolUnknown)
	st.wantCode(t, "12", "a start line past the end is INVALID_RANGE", tools.CodeInvalidRange)
	st.Check("the error responses are well-formed XML", wellFormed(t.rendered) == nil, "%v", wellFormed(t.rendered))
	sandboxChecks(ctx, st)
}

// sandboxChecks tries run_command's sandbox for real: the kernel must
// refuse what the sandbox forbids.
func sandboxChecks(ctx context.Context, st *Checker) {
	t, ok := st.reg.Lookup("run_command")
	if !ok {
		return
	}
	sh, ok := t.(*shell.Tool)
	if !ok {
		return
	}
	for _, f := range sh.Check(ctx) {
		st.Check("run_command sandbox: "+f.Name, f.OK, "%s", f.Detail)
	}
}

// FileWrite checks write_file: create, rewrite, partial writes, guards,
// backups and undo.
func FileWrite(ctx context.Context, st *Checker) {
	longFile := strings.Repeat("keep this line\n", 30)
	st.setup(map[string]string{
		"notes.md":   "one\ntwo\nthree\n",
		"windows.md": "first\r\nsecond\r\n",
		"run.sh":     "#!/bin/sh\necho hi\n",
		"long.md":    longFile,
	})
	os.Chmod(filepath.Join(st.dir, "run.sh"), 0o755)

	t := st.reply(ctx, `<tool_call name="write_file" id="1">
<operation_type>create</operation_type>
<file_path>docs/guide/new.md</file_path>
<content>
# New guide
Created by the self-check.
</content>
</tool_call>`)
	st.wantCode(t, "1", "create makes a file and its folders", "")
	st.Check("the created file holds exactly the content", st.file("docs/guide/new.md") == "# New guide\nCreated by the self-check.\n", "got %q", st.file("docs/guide/new.md"))

	t = st.reply(ctx, `<tool_call name="write_file" id="2"><operation_type>create</operation_type><file_path>notes.md</file_path><content>x</content></tool_call>`)
	st.wantCode(t, "2", "create of an existing file is FILE_EXISTS", tools.CodeFileExists)
	t = st.reply(ctx, `<tool_call name="write_file" id="3"><operation_type>rewrite</operation_type><file_path>notes.md</file_path><content>x</content></tool_call>`)
	st.wantCode(t, "3", "a rewrite of a file never read is FILE_STALE", tools.CodeFileStale)
	st.Check("the refused writes left the file alone", st.file("notes.md") == "one\ntwo\nthree\n", "got %q", st.file("notes.md"))

	t = st.reply(ctx, `<tool_call name="read_file" id="4"><file_path>notes.md</file_path></tool_call>
<tool_call name="write_file" id="5"><operation_type>rewrite</operation_type><file_path>notes.md</file_path><content>
ONE
TWO
THREE
</content></tool_call>`)
	st.wantCode(t, "5", "a rewrite after a read works", "")
	if res, ok := t.result("5"); ok {
		st.Check("the rewrite answers with a diff and line counts", strings.Contains(res.Content, "-one") && strings.Contains(res.Content, "+ONE") &&
			metaValue(res, "lines_before") == "3" && metaValue(res, "lines_after") == "3", "got %+v", res)
	}
	st.checkBackup("notes.md", "one\ntwo\nthree\n")

	// Bottom up: line numbers mean the file as read (protocol.md §3a).
	t = st.reply(ctx, `<tool_call name="write_file" id="6"><operation_type>partial</operation_type><file_path>notes.md</file_path><start_line>4</start_line><end_line>3</end_line><content>four, appended</content></tool_call>
<tool_call name="write_file" id="7"><operation_type>partial</operation_type><file_path>notes.md</file_path><start_line>2</start_line><end_line>2</end_line><content>two, replaced</content></tool_call>
<tool_call name="write_file" id="8"><operation_type>partial</operation_type><file_path>notes.md</file_path><start_line>1</start_line><content>zero, inserted</content></tool_call>`)
	st.wantCode(t, "8", "partial writes replace, insert and append", "")
	want := "zero, inserted\nONE\ntwo, replaced\nTHREE\nfour, appended\n"
	st.Check("the partial writes give the expected file", st.file("notes.md") == want, "got %q", st.file("notes.md"))

	t = st.reply(ctx, `<tool_call name="write_file" id="9"><operation_type>partial</operation_type><file_path>notes.md</file_path><start_line>9</start_line><end_line>9</end_line><content>x</content></tool_call>`)
	if st.wantCode(t, "9", "a range outside the file is INVALID_RANGE", tools.CodeInvalidRange) {
		res, _ := t.result("9")
		st.Check("the range error states the line count", strings.Contains(res.Message, "5 lines"), "got %q", res.Message)
	}

	t = st.reply(ctx, `<tool_call name="read_file" id="10"><file_path>windows.md</file_path></tool_call>
<tool_call name="write_file" id="11"><operation_type>partial</operation_type><file_path>windows.md</file_path><start_line>3</start_line><content>third</content></tool_call>
<tool_call name="read_file" id="12"><file_path>run.sh</file_path></tool_call>
<tool_call name="write_file" id="13"><operation_type>rewrite</operation_type><file_path>run.sh</file_path><content>
#!/bin/sh
echo bye
</content></tool_call>`)
	st.wantCode(t, "11", "a partial write of a CRLF file works", "")
	st.Check("CRLF line endings are kept", st.file("windows.md") == "first\r\nsecond\r\nthird\r\n", "got %q", st.file("windows.md"))
	fi, err := os.Stat(filepath.Join(st.dir, "run.sh"))
	st.Check("permission bits are kept", err == nil && fi.Mode().Perm() == 0o755, "mode %v, %v", modeOf(fi), err)

	t = st.reply(ctx, `<tool_call name="read_file" id="14"><file_path>long.md</file_path></tool_call>
<tool_call name="write_file" id="15"><operation_type>rewrite</operation_type><file_path>long.md</file_path><content>
A new first line.
// ... rest of the file unchanged ...
</content></tool_call>`)
	st.wantCode(t, "15", "a placeholder rewrite is CONTENT_PLACEHOLDER", tools.CodeContentPlaceholder)
	st.Check("the placeholder rewrite left the file alone", st.file("long.md") == longFile, "file changed")

	st.reply(ctx, `<tool_call name="read_file" id="16"><file_path>long.md</file_path></tool_call>`)
	os.WriteFile(filepath.Join(st.dir, "long.md"), []byte("changed by another program\n"), 0o644)
	t = st.reply(ctx, `<tool_call name="write_file" id="17"><operation_type>partial</operation_type><file_path>long.md</file_path><start_line>1</start_line><end_line>1</end_line><content>x</content></tool_call>`)
	st.wantCode(t, "17", "a file changed on disk since the read is FILE_STALE", tools.CodeFileStale)
	st.Check("the other program's change is kept", st.file("long.md") == "changed by another program\n", "got %q", st.file("long.md"))

	rep, err := st.root.Undo(ctx, false)
	st.Check("undo reverts the last reply's writes", err == nil && st.file("run.sh") == "#!/bin/sh\necho hi\n" && st.file("windows.md") == "first\r\nsecond\r\n",
		"%v; run.sh %q", err, st.file("run.sh"))
	_, err = st.root.Redo(ctx, false)
	st.Check("redo puts them back", err == nil && st.file("run.sh") == "#!/bin/sh\necho bye\n" && rep.Recorded != "",
		"%v; run.sh %q", err, st.file("run.sh"))
}

// Combined checks a whole workflow from raw model text: calls, CDATA,
// errors, undo.
func Combined(ctx context.Context, st *Checker) {
	st.setup(map[string]string{"README.md": selftestReadme, "src/app.js": "// TODO: write the app\n"})

	t := st.reply(ctx, "I'll start by looking around.\n\n```xml\n<tool_call name=\"list_directory\" id=\"1\"/>\n```\n\n"+
		`<tool_call name='read_file' id='2'>
  <file_path>README.md</file_path>
</tool_call>
<tool_call name="search_files" id="3"><pattern>TODO</pattern><glob>*.js</glob></tool_call>
Now I know the layout.`)
	st.Check("prose, a fenced call and quoted attributes give three calls", len(t.results) == 3, "got %d responses", len(t.results))
	st.wantCode(t, "3", "the search with a glob runs", "")

	guide := "# Guide\nWrite <tool_call name=\"x\"> literally, & keep \"quotes\".\nA CDATA end ]]> and </content> stay in the text.\n"
	t = st.reply(ctx, `I'll write the guide and extend the README.
<tool_call name="write_file" id="4">
<operation_type>create</operation_type>
<file_path>docs/guide.md</file_path>
<content><![CDATA[
# Guide
Write <tool_call name="x"> literally, & keep "quotes".
A CDATA end ]]]]><![CDATA[> and </content> stay in the text.
]]></content>
</tool_call>
<tool_call name="write_file" id="5">
<operation_type>partial</operation_type>
<file_path>README.md</file_path>
<start_line>5</start_line>
<content>
See docs/guide.md &amp; more.
</content>
</tool_call>
<tool_call name="read_file" id="6"><file_path>docs/guide.md</file_path></tool_call>`)
	st.wantCode(t, "4", "a create with CDATA content runs", "")
	st.Check("CDATA content is written verbatim, markup and ]]> included", st.file("docs/guide.md") == guide, "got %q", st.file("docs/guide.md"))
	st.Check("an entity outside CDATA is decoded", strings.HasSuffix(st.file("README.md"), "TODO: nothing to do\nSee docs/guide.md & more.\n"), "got %q", st.file("README.md"))
	if res, ok := t.result("6"); ok {
		st.Check("reading it back gives the same text", res.Content == guide, "got %q", res.Content)
	}
	err := wellFormed(t.rendered)
	st.Check("responses with markup in the content are well-formed XML", err == nil && strings.Contains(t.rendered, "<![CDATA["), "%v", err)

	readmeBefore := st.file("README.md")
	t = st.reply(ctx, `Let me read the changelog first, then update the README.
<tool_call name="read_file" id="7"><file_path>CHANGELOG.md</file_path></tool_call>
<tool_call name="write_file" id="8"><operation_type>rewrite</operation_type><file_path>README.md</file_path><content>nothing</content></tool_call>
<tool_call name="list_directory" id="9"><path>docs</path></tool_call>
<tool_call name="write_file" id="10">
<operation_type>create</operation_type>
<file_path>docs/cut.md</file_path>
<content>this reply was cut off`)
	st.wantCode(t, "7", "the deliberate error comes back as FILE_NOT_FOUND", tools.CodeFileNotFound)
	st.wantCode(t, "8", "a write after the failed call is TOOL_SKIPPED", tools.CodeSkipped)
	st.wantCode(t, "9", "a read after the failed call still runs", "")
	st.wantCode(t, "10", "a call cut off before </tool_call> is CALL_INCOMPLETE", "CALL_INCOMPLETE")
	st.Check("the skipped and the cut-off writes touched nothing", st.file("README.md") == readmeBefore && st.file("docs/cut.md") == "<missing>",
		"README %q, cut.md %q", st.file("README.md"), st.file("docs/cut.md"))

	rep, err := st.root.Undo(ctx, false)
	st.Check("undo reverts the reply that wrote", err == nil && st.file("docs/guide.md") == "<missing>" && st.file("README.md") == selftestReadme,
		"%v (%+v); guide %q", err, rep, st.file("docs/guide.md"))
}

// checkBackup checks that the newest backup of file holds old.
func (st *Checker) checkBackup(file, old string) {
	store, err := st.root.Backups()
	if err != nil {
		st.Check("the old content is backed up", false, "%v", err)
		return
	}
	es, err := store.Entries()
	if err != nil || len(es) == 0 {
		st.Check("the old content is backed up", false, "no manifest entries (%v)", err)
		return
	}
	e := es[len(es)-1]
	f, err := store.OpenBlob(e)
	if err != nil {
		st.Check("the old content is backed up", false, "%v", err)
		return
	}
	defer f.Close()
	b := make([]byte, len(old)+1)
	n, _ := f.Read(b)
	st.Check("the old content is backed up, with a manifest entry", e.Path == file && string(b[:n]) == old && e.SHA256Before != "" && e.SHA256After != "",
		"entry %+v, backup %q", e, b[:n])
}

func metaValue(res tools.Result, name string) string {
	for _, a := range res.Metadata {
		if a.Name == name {
			return a.Value
		}
	}
	return ""
}

func modeOf(fi os.FileInfo) os.FileMode {
	if fi == nil {
		return 0
	}
	return fi.Mode()
}
