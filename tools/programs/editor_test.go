package programs

import (
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
