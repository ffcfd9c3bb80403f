package fsedit

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/agentcli/agent/tools"
	"github.com/agentcli/agent/tools/sandbox"
)

// TestEveryTextFileEditable: the old allowlist refused these though they
// are text and show in the tree.
func TestEveryTextFileEditable(t *testing.T) {
	names := []string{"go.mod", "go.sum", "Cargo.toml", "pyproject.toml", "README", "Dockerfile.dev", "CODEOWNERS",
		"a.kt", "b.swift", "c.lua", "d.vue", "e.svelte", "main.tf", "api.proto", "x.mjs", "s.ini", "n.conf", "t.csv", "i.svg", ".env.example", ".env.sample"}
	files := map[string]string{}
	for _, n := range names {
		files[n] = "first line of " + n + "\n"
	}
	// files.extra_extensions of old configs: accepted, ignored.
	p := newProjectOpts(t, files, sandbox.Options{Extensions: []string{".tf"}, Names: []string{"Jenkinsfile"}})
	for _, n := range names {
		wantOK(t, p.read(n))
		wantOK(t, p.write("replace", n, "changed\n", "old_text", "first line of "+n+"\n"))
		if got := p.content(n); got != "changed\n" {
			t.Errorf("%s = %q", n, got)
		}
	}
	wantOK(t, p.write("create", "LICENSE-MIT", "text\n"))
}

// TestNULLateRefusesWrite: the old check sniffed the first 8000 bytes; a
// NUL at byte 100,000 let a read and a write through.
func TestNULLateRefusesWrite(t *testing.T) {
	data := []byte(strings.Repeat("a text line of some length\n", 5000)) // 135,000 bytes
	data[100000] = 0
	p := newProject(t, map[string]string{"data.txt": string(data)})
	wantCode(t, p.read("data.txt"), tools.CodeUnsupportedType, "binary")
	wantCode(t, p.read("data.txt", "start_line", "1", "end_line", "2"), tools.CodeUnsupportedType)
	wantCode(t, p.write("partial", "data.txt", "x\n", "start_line", "1", "end_line", "1"), tools.CodeFileStale)
	// Even with a read state that says otherwise (saved before the NUL
	// arrived), the write itself finds the NUL and refuses.
	clean := strings.Repeat("a text line of some length\n", 5000)
	os.WriteFile(filepath.Join(p.dir, "data.txt"), []byte(clean), 0o644)
	wantOK(t, p.read("data.txt"))
	fi, _ := os.Stat(filepath.Join(p.dir, "data.txt"))
	f, _ := os.OpenFile(filepath.Join(p.dir, "data.txt"), os.O_WRONLY, 0)
	f.WriteAt([]byte{0}, 100000)
	f.Close()
	os.Chtimes(filepath.Join(p.dir, "data.txt"), fi.ModTime(), fi.ModTime())
	st, _ := p.sess.recall("data.txt")
	st.crc = crcOf(t, p.dir+"/data.txt")
	p.sess.remember("data.txt", st)
	wantCode(t, p.write("partial", "data.txt", "x\n", "start_line", "1", "end_line", "1"), tools.CodeUnsupportedType, "NUL")
	if got := p.content("data.txt"); got[100000] != 0 {
		t.Error("the binary file was changed")
	}
	// Binary formats by name are refused without reading.
	wantCode(t, p.write("create", "logo.png", "x"), tools.CodeUnsupportedType, ".png")
}

func crcOf(t *testing.T, path string) uint32 {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fp := sandbox.NewFingerprint(strings.NewReader(string(b)))
	buf := make([]byte, 1<<16)
	for {
		if _, err := fp.Read(buf); err != nil {
			break
		}
	}
	return fp.CRC
}

func TestSecretFiles(t *testing.T) {
	secrets := []string{".env", ".env.local", "config/server.pem", "tls.key", "id_rsa", "id_ed25519", ".netrc", ".pgpass", "credentials.json", "cert.p12", "a.pfx", ".git-credentials",
		".envrc", "prod.env", ".npmrc", ".pypirc", ".aws/credentials", "prod.tfvars", ".docker/config.json", "service-account-ci.json", "secrets.yaml"}
	files := map[string]string{"notes.md": "API_KEY mentioned here\n", ".env.example": "API_KEY=\n"}
	for _, s := range secrets {
		files[s] = "API_KEY=sk-secret\n"
	}
	p := newProject(t, files)
	for _, s := range secrets {
		wantCode(t, p.read(s), tools.CodePolicyDenied, "secrets")
		wantCode(t, p.write("rewrite", s, "x\n"), tools.CodePolicyDenied)
		wantCode(t, p.write("create", s+".2.key", "x\n"), tools.CodePolicyDenied)
	}
	// A link with a harmless name to a secret file is still a secret.
	if err := os.Symlink(".env", filepath.Join(p.dir, "env.md")); err != nil {
		t.Fatal(err)
	}
	wantCode(t, p.read("env.md"), tools.CodePolicyDenied)
	res := p.call("search_files", kv("pattern", "API_KEY"))
	wantOK(t, res)
	if strings.Contains(res.Content, "sk-secret") || !strings.Contains(res.Content, "notes.md") || !strings.Contains(res.Content, ".env.example") {
		t.Errorf("search content:\n%s", res.Content)
	}
	if !strings.Contains(res.Message, "skipped 21 files that usually hold secrets (") {
		t.Errorf("search message %q does not say what it skipped", res.Message)
	}
	// The names still show in listings.
	ls := p.call("list_directory", kv("depth", "3"))
	for _, s := range []string{".env", "id_rsa", "server.pem"} {
		if !strings.Contains(ls.Content, s) {
			t.Errorf("listing lacks %s:\n%s", s, ls.Content)
		}
	}
	// The user's own configuration may allow some.
	p2 := newProjectOpts(t, map[string]string{".env": "A=1\n", "config/dev.key": "k\n", "id_rsa": "x\n"}, sandbox.Options{AllowSecrets: []string{".env", "config/*.key"}})
	wantOK(t, p2.read(".env"))
	wantOK(t, p2.read("config/dev.key"))
	wantCode(t, p2.read("id_rsa"), tools.CodePolicyDenied)
}

// TestSecretNames is the name rule alone, on project paths: what
// usually holds a secret, and the look-alikes that do not.
func TestSecretNames(t *testing.T) {
	for _, c := range []struct {
		rel    string
		secret bool
	}{
		{".env", true},
		{"app/.env.production", true},
		{".envrc", true},
		{"prod.env", true},
		{"deploy/staging.ENV", true},
		{".npmrc", true},
		{"web/.npmrc", true},
		{".pypirc", true},
		{".aws/credentials", true},
		{"home/.AWS/Credentials", true},
		{"terraform.tfvars", true},
		{"envs/prod.auto.tfvars", true},
		{"terraform.tfvars.json", true},
		{".docker/config.json", true},
		{"service-account.json", true},
		{"service-account-prod.json", true},
		{"k8s/secrets.yaml", true},
		{"secrets.yml", true},
		{".git-credentials", true},
		{"id_ed25519", true},
		{"server.pem", true},
		// Not secrets: examples, and the same names elsewhere.
		{".env.example", false},
		{"prod.env.sample", false},
		{"terraform.tfvars.example", false},
		{"credentials", false},
		{"aws/credentials.md", false},
		{"config.json", false},
		{"docker/config.json", false},
		{"secrets.md", false},
		{"secrets.json", false},
		{"service.json", false},
		{"environment.go", false},
		{"id_ed25519.pub", false},
		{"envrc.md", false},
	} {
		if got := sandbox.IsSecretName(c.rel); got != c.secret {
			t.Errorf("isSecretName(%q) = %v, want %v", c.rel, got, c.secret)
		}
	}
}

func TestSearchSaysWhatItSkipped(t *testing.T) {
	p := newProject(t, map[string]string{"a.md": "x\n", "b.bin": "x\x00y\n", "c.png": "x\n", ".env": "x=1\n"})
	big := filepath.Join(p.dir, "big.log")
	f, _ := os.Create(big)
	f.Truncate(maxSearchFileSize + 1)
	f.Close()
	res := p.call("search_files", kv("pattern", "x"))
	wantOK(t, res)
	if !strings.HasSuffix(res.Message, "; skipped 2 binary files, 1 file over 10.0 MiB, 1 file that usually holds secrets (.env)") {
		t.Errorf("message %q", res.Message)
	}
}

// TestBadPathsAreResults: none of these may end the run with a Go error.
func TestBadPathsAreResults(t *testing.T) {
	p := newProject(t, map[string]string{"a.md": "x\n"})
	long := strings.Repeat("n", 256) + ".md"
	for _, tc := range []struct{ path, code, hint string }{
		{long, tools.CodeSchemaInvalid, "at most 255 bytes"},
		{"dir/" + long + "/x.md", tools.CodeSchemaInvalid, "255"},
		{"~/x.md", tools.CodeSchemaInvalid, "home folder"},
		{"$HOME/x.md", tools.CodeSchemaInvalid, "home folder"},
		{"${HOME}/x.md", tools.CodeSchemaInvalid, "home folder"},
		{"a\u200b.md", tools.CodeSchemaInvalid, "invisible"},
		{"a\u2060.md", tools.CodeSchemaInvalid, "invisible"},
		{"soft\u00adhyphen.md", tools.CodeSchemaInvalid, "invisible"},
		{"a\u202e.md", tools.CodeSchemaInvalid, "invisible"},
		{"<file_path>a.md", tools.CodeSchemaInvalid, "< or >"},
		{"a>b.md", tools.CodeSchemaInvalid, "< or >"},
	} {
		for _, call := range []func() tools.Result{
			func() tools.Result { return p.read(tc.path) },
			func() tools.Result { return p.write("create", tc.path, "x\n") },
			func() tools.Result { return p.call("list_directory", kv("path", tc.path)) },
			func() tools.Result { return p.call("search_files", kv("pattern", "x", "path", tc.path)) },
		} {
			wantCode(t, call(), tc.code, tc.hint)
		}
	}
	// Not a folder called "~".
	if _, err := os.Stat(filepath.Join(p.dir, "~")); err == nil {
		t.Error("a folder named ~ was made")
	}
	// Emoji names with joiners stay allowed.
	wantOK(t, p.write("create", "👩\u200d💻.md", "x\n"))
}

func TestSpecialFilesUnsupported(t *testing.T) {
	p := newProject(t, map[string]string{"a.md": "x\n"})
	if err := syscall.Mkfifo(filepath.Join(p.dir, "pipe.txt"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Symlink("loop-b", filepath.Join(p.dir, "loop-a"))
	os.Symlink("loop-a", filepath.Join(p.dir, "loop-b"))
	os.Symlink("loop-a", filepath.Join(p.dir, "via"))
	for _, path := range []string{"pipe.txt", "loop-a", "via", "via/x.md"} {
		wantCode(t, p.read(path), tools.CodeUnsupportedType)
		wantCode(t, p.write("rewrite", path, "x\n"), tools.CodeUnsupportedType)
	}
	if _, err := os.Stat("/dev/null"); err == nil {
		os.Symlink("/dev/null", filepath.Join(p.dir, "null.md"))
		wantCode(t, p.read("null.md"), tools.CodePathOutsideRoot)
	}
}

func TestUTF8BOMKept(t *testing.T) {
	p := newProject(t, map[string]string{"b.md": sandbox.UTF8BOM + "one\ntwo\nthree\n", "c.md": sandbox.UTF8BOM + "x\ny\n"})
	res := p.read("b.md")
	wantOK(t, res)
	if meta(res, "bom") != "yes" || strings.HasPrefix(res.Content, sandbox.UTF8BOM) || !strings.HasPrefix(res.Content, "one\n") {
		t.Fatalf("read: bom=%q content %q", meta(res, "bom"), res.Content)
	}
	wantOK(t, p.write("partial", "b.md", "ONE\n", "start_line", "1", "end_line", "1"))
	if got := p.content("b.md"); got != sandbox.UTF8BOM+"ONE\ntwo\nthree\n" {
		t.Fatalf("partial on line 1: %q", got)
	}
	p.inReply("2")
	wantOK(t, p.read("b.md"))
	wantOK(t, p.write("rewrite", "b.md", "new\ncontent\n"))
	if got := p.content("b.md"); got != sandbox.UTF8BOM+"new\ncontent\n" {
		t.Fatalf("rewrite: %q", got)
	}
	wantOK(t, p.write("replace", "b.md", "NEW\n", "old_text", "new\n"))
	if got := p.content("b.md"); got != sandbox.UTF8BOM+"NEW\ncontent\n" {
		t.Fatalf("replace: %q", got)
	}
	wantOK(t, p.read("c.md", "start_line", "2", "end_line", "2"))
	wantOK(t, p.write("partial", "c.md", "Y\n", "start_line", "2", "end_line", "2"))
	if got := p.content("c.md"); got != sandbox.UTF8BOM+"x\nY\n" {
		t.Fatalf("partial below line 1: %q", got)
	}
}

// TestHardLinkToSecretIsASecret: another name a command gave a secret
// file (ln .env notes.txt) is refused by read, write and search, while a
// hard link between ordinary files reads as usual (pnpm's stores), and a
// secret the user allowed stays allowed under its other name.
func TestHardLinkToSecretIsASecret(t *testing.T) {
	p := newProject(t, map[string]string{".env": "TOKEN=s3cr3t\n", "k/id_ed25519": "KEYMATERIAL\n", "a.txt": "plain s3cr3t-free\n"})
	for old, name := range map[string]string{".env": "hard.txt", "k/id_ed25519": "notes.md", "a.txt": "b.txt"} {
		if err := os.Link(filepath.Join(p.dir, old), filepath.Join(p.dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"hard.txt", "notes.md"} {
		res := p.read(name)
		wantCode(t, res, tools.CodePolicyDenied, "hard link")
		wantCode(t, p.write("rewrite", name, "x\n"), tools.CodePolicyDenied)
	}
	wantOK(t, p.read("b.txt"))
	res := p.call("search_files", kv("pattern", "s3cr3t|KEYMATERIAL"))
	if strings.Contains(res.Content, "TOKEN=") || strings.Contains(res.Content, "KEYMATERIAL") || !strings.Contains(res.Content, "b.txt") {
		t.Errorf("search through hard links:\n%s\n%s", res.Content, res.Message)
	}
	p2 := newProjectOpts(t, map[string]string{".env": "A=1\n"}, sandbox.Options{AllowSecrets: []string{".env"}})
	os.Link(filepath.Join(p2.dir, ".env"), filepath.Join(p2.dir, "env.txt"))
	wantOK(t, p2.read("env.txt"))
}
