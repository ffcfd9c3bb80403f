package main

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/agentcli/agent/agent/llm"
	"github.com/agentcli/agent/agent/llm/llmtest"
	"github.com/agentcli/agent/tools/notes/notestest"
)

// TestMain lets the scripts run the agent binary as the command "agent":
// the test binary re-executes itself as the real program.
func TestMain(m *testing.M) {
	testscript.Main(stopPostgresAfter{m}, map[string]func(){"agent": main})
}

// stopPostgresAfter runs the tests, then stops the PostgreSQL server the
// scripts started, if any (testscript.Main exits without returning).
type stopPostgresAfter struct{ m *testing.M }

func (s stopPostgresAfter) Run() int {
	defer notestest.StopShared()
	return s.m.Run()
}

// TestScript runs the end-to-end scripts in the top-level testdata/script: the real
// binary, real files in a temporary project, and a fake provider on
// 127.0.0.1 reached through the provider's official SDK.
//
// Extra commands for the scripts:
//
//	fakellm PROVIDER FILE...   start a fake gemini, openai, anthropic,
//	                           ollama (with llama3.2, trained for 131,072
//	                           tokens; ollama:4096 for 4,096) or llamacpp
//	                           (a 4,096-token window)
//	                           server answering each request with the
//	                           next FILE, and point the agent at it
//	                           ($FAKELLM_ROOT is its address alone)
//	llmreq N [FIELD]           print request N's last user message
//	                           (FIELD: last, system, body, stop, or
//	                           images: each image of the last user
//	                           message as the server decoded it, "TYPE
//	                           WxH SHA256" a line)
//	llmreq count               print how many requests were made
//	llmreq windows             print each request's num_ctx, the window
//	                           it was served with, its tokens and how
//	                           many were lost off its beginning, then
//	                           whether num_ctx was the same in all
//	jsonl PATH...              fail unless every line of each file (or of
//	                           each *.jsonl file in a folder) is JSON
//	sha256 PATH...             print each path's SHA-256, "folder" or
//	                           "absent", one a line
//	mkimage PATH WxH           write a PNG of W×H pixels that looks like
//	                           a screenshot
//	countfiles GLOB            print how many files the folders GLOB
//	                           matches hold, in all
//	pgdb                       create a new database on the package's
//	                           PostgreSQL server (started once) and set
//	                           PGURL to it
//	embedserver                start a fake embedding server (both wire
//	                           formats) and set EMBED_URL to it
//
// Extra condition: [need:PROGRAM] holds when PROGRAM is on PATH, and
// always under CI, so that `[!need:bwrap] skip` skips on a machine
// without bubblewrap but fails under CI, where every program must be.
func TestScript(t *testing.T) {
	if raceDetector && testing.Short() {
		// make test runs every script in its plain pass. Under the race
		// detector each exec starts an instrumented binary, two minutes
		// for paths the in-process tests of this package already run
		// under it (the run harness, the printers, the spinner).
		t.Skip("the end-to-end scripts run in the plain pass; run without -short to run them under -race too")
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "../../testdata/script",
		RequireExplicitExec: true,
		Condition: func(cond string) (bool, error) {
			prog, ok := strings.CutPrefix(cond, "need:")
			if !ok {
				return false, fmt.Errorf("unknown condition %q", cond)
			}
			_, err := exec.LookPath(prog)
			return err == nil || os.Getenv("CI") != "", nil
		},
		Setup: func(env *testscript.Env) error {
			// Keep the user's own configuration and keys out.
			env.Setenv("XDG_CONFIG_HOME", filepath.Join(env.WorkDir, ".config"))
			env.Values[fakeKey{}] = &fakeState{}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"fakellm":    func(ts *testscript.TestScript, neg bool, args []string) { cmdFakeLLM(t, ts, neg, args) },
			"llmreq":     cmdLLMReq,
			"jsonl":      cmdJSONL,
			"sha256":     cmdSHA256,
			"mkimage":    func(ts *testscript.TestScript, neg bool, args []string) { cmdMkImage(t, ts, neg, args) },
			"countfiles": cmdCountFiles,
			"pgdb": func(ts *testscript.TestScript, neg bool, args []string) {
				url, err := notestest.SharedPostgres(t).NewDatabase()
				ts.Check(err)
				ts.Setenv("PGURL", url)
			},
			"embedserver": func(ts *testscript.TestScript, neg bool, args []string) {
				srv := notestest.NewEmbedServer()
				ts.Defer(srv.Close)
				ts.Setenv("EMBED_URL", srv.URL)
			},
		},
	})
}

type fakeKey struct{}

// fakeState is one script's fake server.
type fakeState struct {
	srv *llmtest.Server
}

func fakeOf(ts *testscript.TestScript) *fakeState { return ts.Value(fakeKey{}).(*fakeState) }

// cmdFakeLLM starts the fake server. Each answer file is streamed in small
// chunks; a file may start with directive lines:
//
//	#! fail STATUS [HEADER VALUE]...   answer with an HTTP error
//	#! fault reset|malformed|cut|stall go wrong after the text (stall: send
//	                                   nothing more, keep the connection)
//	#! raw STATUS [CONTENT-TYPE]       answer with the rest of the file as
//	                                   the body, verbatim
//	#! delay DURATION                  wait before answering
//	#! finish REASON                   end with this finish reason (length)
//	#! usage IN OUT [CACHED]           report these token counts at the end
func cmdFakeLLM(t *testing.T, ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 {
		ts.Fatalf("usage: fakellm gemini|openai|anthropic FILE...")
	}
	var answers []llmtest.Answer
	for _, name := range args[1:] {
		answers = append(answers, parseAnswer(ts, ts.ReadFile(name)))
	}
	var srv *llmtest.Server
	switch args[0] {
	case "gemini":
		srv = llmtest.NewGeminiServer(t, answers...)
	case "openai":
		srv = llmtest.NewOpenAIServer(t, answers...)
	case "anthropic":
		srv = llmtest.NewAnthropicServer(t, answers...)
	case "ollama", "ollama:4096":
		trained := 131072
		if args[0] == "ollama:4096" {
			trained = 4096
		}
		srv = llmtest.NewOllamaServer(t, []llmtest.OllamaModel{{Name: "llama3.2:latest", Max: trained}}, answers...).Server
	case "llamacpp":
		srv = llmtest.NewLlamaCppServer(t, 4096, answers...)
	default:
		ts.Fatalf("unknown provider %q", args[0])
	}
	ts.Defer(srv.Close)
	for _, kv := range srv.Env() {
		k, v, _ := strings.Cut(kv, "=")
		ts.Setenv(k, v)
	}
	// The server's address alone, to use it as an HTTP proxy: it serves
	// a request for http://any.host/v1/... like one to its own address.
	ts.Setenv("FAKELLM_ROOT", srv.Root)
	fakeOf(ts).srv = srv
}

func parseAnswer(ts *testscript.TestScript, text string) llmtest.Answer {
	var a llmtest.Answer
	for strings.HasPrefix(text, "#! ") {
		line, rest, _ := strings.Cut(text, "\n")
		text = rest
		f := strings.Fields(strings.TrimPrefix(line, "#! "))
		switch {
		case len(f) >= 2 && f[0] == "fail":
			status, err := strconv.Atoi(f[1])
			ts.Check(err)
			a = llmtest.Fail(status, f[2:]...)
		case len(f) == 2 && f[0] == "fault":
			faults := map[string]llmtest.Fault{"reset": llmtest.FaultReset, "malformed": llmtest.FaultMalformed, "cut": llmtest.FaultCut, "stall": llmtest.FaultStall}
			fault, ok := faults[f[1]]
			if !ok {
				ts.Fatalf("unknown fault %q", f[1])
			}
			a.Fault = fault
		case (len(f) == 2 || len(f) == 3) && f[0] == "raw":
			status, err := strconv.Atoi(f[1])
			ts.Check(err)
			a = llmtest.Raw(status, rest)
			if len(f) == 3 {
				a.Header = http.Header{"Content-Type": {f[2]}}
			}
			return a
		case len(f) == 2 && f[0] == "delay":
			d, err := time.ParseDuration(f[1])
			ts.Check(err)
			a.Delay = d
		case len(f) == 2 && f[0] == "finish":
			a.Finish = f[1]
		case (len(f) == 3 || len(f) == 4) && f[0] == "usage":
			var n [3]int
			for i, v := range f[1:] {
				var err error
				n[i], err = strconv.Atoi(v)
				ts.Check(err)
			}
			a.Usage = &llm.Usage{InputTokens: n[0], OutputTokens: n[1], CachedTokens: n[2]}
		default:
			ts.Fatalf("bad directive %q", line)
		}
	}
	if a.Status == 0 {
		a.Chunks = chunk(text, 24)
	}
	return a
}

// chunk cuts s into pieces of n bytes (the last may be shorter), never
// inside a UTF-8 sequence, so the agent parses a real stream.
func chunk(s string, n int) []string {
	var out []string
	for len(s) > n {
		k := n
		for k > 1 && s[k]&0xC0 == 0x80 {
			k--
		}
		out = append(out, s[:k])
		s = s[k:]
	}
	if s != "" {
		out = append(out, s)
	}
	return out
}

func cmdLLMReq(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 {
		ts.Fatalf("usage: llmreq N [last|system|body|stop] | llmreq count")
	}
	st := fakeOf(ts)
	if st.srv == nil {
		ts.Fatalf("no fake server: run fakellm first")
	}
	reqs := st.srv.Requests()
	switch args[0] {
	case "count":
		fmt.Fprintln(ts.Stdout(), len(reqs))
		return
	case "windows":
		same := len(reqs) > 0
		for i, r := range reqs {
			fmt.Fprintf(ts.Stdout(), "%d num_ctx=%d window=%d tokens=%d lost=%d\n", i+1, r.NumCtx, r.Window, r.Tokens, r.Lost)
			same = same && r.NumCtx == reqs[0].NumCtx
		}
		if same {
			fmt.Fprintf(ts.Stdout(), "num_ctx: the same in all %d requests\n", len(reqs))
		} else {
			fmt.Fprintln(ts.Stdout(), "num_ctx: not the same in every request")
		}
		return
	}
	n, err := strconv.Atoi(args[0])
	ts.Check(err)
	if n < 1 || n > len(reqs) {
		ts.Fatalf("request %d does not exist (%d made)", n, len(reqs))
	}
	r := reqs[n-1]
	field := "last"
	if len(args) > 1 {
		field = args[1]
	}
	switch field {
	case "last":
		fmt.Fprintln(ts.Stdout(), r.LastUser())
	case "system":
		fmt.Fprintln(ts.Stdout(), r.System)
	case "body":
		fmt.Fprintln(ts.Stdout(), string(r.Body))
	case "stop":
		fmt.Fprintln(ts.Stdout(), strings.Join(r.Stop, "\n"))
	case "images":
		for _, img := range r.Images() {
			fmt.Fprintf(ts.Stdout(), "%s %dx%d %s\n", img.MIME, img.Width, img.Height, img.SHA256)
		}
	default:
		ts.Fatalf("unknown field %q", field)
	}
}

func cmdJSONL(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: jsonl PATH...")
	}
	var files []string
	for _, a := range args {
		p := ts.MkAbs(a)
		if info, err := os.Stat(p); err == nil && info.IsDir() {
			matches, _ := filepath.Glob(filepath.Join(p, "*.jsonl"))
			if len(matches) == 0 {
				ts.Fatalf("no .jsonl files in %s", a)
			}
			files = append(files, matches...)
			continue
		}
		files = append(files, p)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		ts.Check(err)
		for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
			if !json.Valid([]byte(line)) {
				ts.Fatalf("%s line %d is not JSON: %q", f, i+1, line)
			}
		}
	}
}

func cmdSHA256(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: sha256 PATH...")
	}
	for _, a := range args {
		p := ts.MkAbs(a)
		what := "absent"
		if fi, err := os.Lstat(p); err == nil && fi.IsDir() {
			what = "folder"
		} else if err == nil {
			data, err := os.ReadFile(p)
			ts.Check(err)
			what = fmt.Sprintf("%x", sha256.Sum256(data))
		}
		fmt.Fprintf(ts.Stdout(), "%s %s\n", what, a)
	}
}

func cmdMkImage(t *testing.T, ts *testscript.TestScript, neg bool, args []string) {
	var w, h int
	if neg || len(args) != 2 {
		ts.Fatalf("usage: mkimage PATH WxH")
	}
	if _, err := fmt.Sscanf(args[1], "%dx%d", &w, &h); err != nil {
		ts.Fatalf("mkimage: size %q: %v", args[1], err)
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), llmtest.PNG(t, w, h), 0o644))
}

func cmdCountFiles(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: countfiles GLOB")
	}
	dirs, err := filepath.Glob(ts.MkAbs(args[0]))
	ts.Check(err)
	n := 0
	for _, d := range dirs {
		entries, err := os.ReadDir(d)
		ts.Check(err)
		n += len(entries)
	}
	fmt.Fprintln(ts.Stdout(), n)
}
