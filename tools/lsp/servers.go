package lsp

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Spec is one language server: the program, the files it serves and how
// its root is found.
type Spec struct {
	// Name names the server in the configuration ([lsp.NAME]) and in
	// what the person is shown.
	Name string
	// Command is the program: a name looked up on the trusted PATH, or
	// an absolute path. Args follow it.
	Command string
	Args    []string
	// FileTypes are the languages it serves, by the names FileType gives
	// ("go", "python", "typescriptreact").
	FileTypes []string
	// RootMarkers are the files or folders whose nearest folder above a
	// file (within the project) is the server's root: go.mod, Cargo.toml.
	// Without one the project folder is the root.
	RootMarkers []string
	// Env are KEY=value pairs added to the server's environment.
	Env []string
	// Toolchain are the programs the server runs (go for gopls, node
	// for a Node server): their install folders are shown read-only in
	// its sandbox, wherever they live.
	Toolchain []string
}

// Serves reports whether the server serves the file at path.
func (s Spec) Serves(path string) bool {
	ft := FileType(path)
	return ft != "" && slices.Contains(s.FileTypes, ft)
}

// Known are the language servers the agent knows how to start, each used
// when its program is on the trusted PATH and no [lsp.NAME] entry says
// otherwise. Of two serving the same files the first found wins (pyright
// over basedpyright). Their file types and root markers follow
// nvim-lspconfig's.
var Known = []Spec{
	{Name: "gopls", Command: "gopls", FileTypes: []string{"go", "gomod", "gowork"},
		RootMarkers: []string{"go.work", "go.mod"}, Toolchain: []string{"go"}},
	{Name: "pyright", Command: "pyright-langserver", Args: []string{"--stdio"}, FileTypes: []string{"python"},
		RootMarkers: []string{"pyproject.toml", "setup.py", "setup.cfg", "requirements.txt", "Pipfile", "pyrightconfig.json"}, Toolchain: []string{"node", "python3"}},
	{Name: "basedpyright", Command: "basedpyright-langserver", Args: []string{"--stdio"}, FileTypes: []string{"python"},
		RootMarkers: []string{"pyproject.toml", "setup.py", "setup.cfg", "requirements.txt", "Pipfile", "pyrightconfig.json"}, Toolchain: []string{"node", "python3"}},
	{Name: "typescript-language-server", Command: "typescript-language-server", Args: []string{"--stdio"},
		FileTypes:   []string{"javascript", "javascriptreact", "typescript", "typescriptreact"},
		RootMarkers: []string{"tsconfig.json", "jsconfig.json", "package.json"}, Toolchain: []string{"node"}},
	{Name: "rust-analyzer", Command: "rust-analyzer", FileTypes: []string{"rust"},
		RootMarkers: []string{"Cargo.toml"}, Toolchain: []string{"cargo", "rustc"}},
	{Name: "clangd", Command: "clangd", FileTypes: []string{"c", "cpp", "objc", "objcpp", "cuda"},
		RootMarkers: []string{"compile_commands.json", "compile_flags.txt", ".clangd"}},
	{Name: "zls", Command: "zls", FileTypes: []string{"zig"},
		RootMarkers: []string{"build.zig", "zls.json"}, Toolchain: []string{"zig"}},
	{Name: "lua-language-server", Command: "lua-language-server", FileTypes: []string{"lua"},
		RootMarkers: []string{".luarc.json", ".luarc.jsonc"}},
	{Name: "bash-language-server", Command: "bash-language-server", Args: []string{"start"},
		FileTypes: []string{"sh", "bash"}, Toolchain: []string{"node"}},
	{Name: "solargraph", Command: "solargraph", Args: []string{"stdio"}, FileTypes: []string{"ruby"},
		RootMarkers: []string{"Gemfile"}, Toolchain: []string{"ruby"}},
}

// fileTypes names a file's language by its extension (lower case), as
// nvim does; "" for one the table lacks. (A switch: no map built at
// start-up.)
func fileTypes(ext string) string {
	switch ext {
	case ".go":
		return "go"
	case ".py", ".pyi":
		return "python"
	case ".js", ".mjs", ".cjs":
		return "javascript"
	case ".jsx":
		return "javascriptreact"
	case ".ts", ".mts", ".cts":
		return "typescript"
	case ".tsx":
		return "typescriptreact"
	case ".rs":
		return "rust"
	case ".c", ".h":
		return "c"
	case ".cc", ".cpp", ".cxx", ".hpp", ".hh":
		return "cpp"
	case ".m":
		return "objc"
	case ".mm":
		return "objcpp"
	case ".cu":
		return "cuda"
	case ".zig":
		return "zig"
	case ".lua":
		return "lua"
	case ".sh":
		return "sh"
	case ".bash":
		return "bash"
	case ".rb":
		return "ruby"
	}
	return ""
}

// FileType is the language of the file at path, by its name: "go",
// "python"; for an extension the table lacks, the extension without its
// dot, so that [lsp.NAME] filetypes = ["nim"] serves *.nim; "" for a
// file without one.
func FileType(path string) string {
	base := filepath.Base(path)
	switch base {
	case "go.mod":
		return "gomod"
	case "go.work":
		return "gowork"
	}
	ext := strings.ToLower(filepath.Ext(base))
	if ft := fileTypes(ext); ft != "" {
		return ft
	}
	return strings.TrimPrefix(ext, ".")
}

// languageID is what the protocol calls a file type, where the two
// differ.
func languageID(fileType string) string {
	switch fileType {
	case "gomod":
		return "go.mod"
	case "gowork":
		return "go.work"
	}
	return fileType
}

// findRoot is the server root of the file at path (absolute, inside
// project): the nearest folder above it holding one of markers, never
// above project; project itself when none does.
func findRoot(project, path string, markers []string) string {
	dir := filepath.Dir(path)
	for within(project, dir) {
		if hasMarker(dir, markers) {
			return dir
		}
		if dir == project {
			break
		}
		dir = filepath.Dir(dir)
	}
	return project
}

// hasMarker reports whether dir holds one of markers.
func hasMarker(dir string, markers []string) bool {
	for _, m := range markers {
		if _, err := os.Lstat(filepath.Join(dir, m)); err == nil {
			return true
		}
	}
	return false
}

// within reports whether path is dir or lies inside it.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}
