package programs

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestWords(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
		err  string
	}{
		{"vi", []string{"vi"}, ""},
		{"  code  --wait ", []string{"code", "--wait"}, ""},
		{`sh -c 'echo "# x" > "$1"' sh`, []string{"sh", "-c", `echo "# x" > "$1"`, "sh"}, ""},
		{`"/opt/My Editor/ed" -n`, []string{"/opt/My Editor/ed", "-n"}, ""},
		{`emacs\ client -t`, []string{"emacs client", "-t"}, ""},
		{`vim -c "set tw=72 \"x\""`, []string{"vim", "-c", `set tw=72 "x"`}, ""},
		{`''`, []string{""}, ""},
		{"vi; rm -rf ~", nil, "; is not supported"},
		{"vi $(evil)", nil, "$ is not supported"},
		{`vi "$HOME"`, nil, "$ inside double quotes"},
		{"vi 'open", nil, "not closed"},
		{`vi "open`, nil, "not closed"},
		{`vi \`, nil, "backslash"},
	} {
		got, err := Words(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("Words(%q) = %q, %v; want an error holding %q", c.in, got, err, c.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("Words(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

// TestEditorRefusesAPlantableAbsolutePath: an absolute $EDITOR inside the
// project (or leading there through a link) is not run, with a one-line
// reason; one outside is taken as it is.
func TestEditorRefusesAPlantableAbsolutePath(t *testing.T) {
	tr := newTree(t)
	planted := program(t, filepath.Join(tr.proj, ".venv", "bin", "myed"))
	link := filepath.Join(tr.sys, "myed-link")
	if err := os.Symlink(planted, link); err != nil {
		t.Fatal(err)
	}
	good := program(t, filepath.Join(tr.sys, "goodeditor"))
	r := tr.resolver(tr.sys, nil)
	for _, ed := range []string{planted, link + " --wait"} {
		words, err := r.Editor(map[string]string{"EDITOR": ed})
		if err == nil || !strings.Contains(err.Error(), "inside the project") || strings.Contains(err.Error(), "\n") {
			t.Errorf("Editor(%q) = %v, %v; want a one-line refusal naming the project", ed, words, err)
		}
	}
	words, err := r.Editor(map[string]string{"VISUAL": good + " -n"})
	if err != nil || len(words) != 2 || words[0] != good {
		t.Errorf("Editor(%q) = %v, %v", good, words, err)
	}
}
