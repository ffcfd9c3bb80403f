package prompt

import "testing"

// TestDisplayNameHiddenCharacters: names holding characters that hide
// what they are (bidi overrides, zero-width ones) are shown quoted, so
// the model and a person reading the prompt see them.
func TestDisplayNameHiddenCharacters(t *testing.T) {
	for in, want := range map[string]string{
		"rtl\u202eexe.txt": `"rtl\u202eexe.txt"`,
		"zero\u200bwidth":  `"zero\u200bwidth"`,
		"bom\ufeff.md":     `"bom\ufeff.md"`,
		"soft\u00adhyphen": `"soft\u00adhyphen"`,
		"עברית.txt":        "עברית.txt",
	} {
		if got := displayName(in); got != want {
			t.Errorf("displayName(%q) = %s, want %s", in, got, want)
		}
	}
}
