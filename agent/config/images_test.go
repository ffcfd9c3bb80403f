package config

import (
	"strings"
	"testing"
)

func TestImagesSetting(t *testing.T) {
	user := `
images = false

[models."my-vision-model"]
images = true
`
	env := map[string]string{"OPENAI_API_KEY": "sk-example-example-example"}
	c, err := Load(Input{Files: files(t, user, ""), Env: env, Flags: Flags{Provider: "openai", Model: "my-vision-model"}, Probe: noProbe})
	if err != nil {
		t.Fatal(err)
	}
	if v := c.ImagesSetting(); v == nil || !*v {
		t.Errorf("the model's own images = true did not win: %v", v)
	}
	var b strings.Builder
	c.writeImages(&b, func(k, v string) { b.WriteString(k + " = " + v + "\n") })
	if !strings.Contains(b.String(), "images = true") || !strings.Contains(b.String(), "config.toml") {
		t.Errorf("agent config shows %q", b.String())
	}
	c.Model = "another"
	if v := c.ImagesSetting(); v == nil || *v {
		t.Errorf("another model: %v, want the top-level false", v)
	}
	c.Images = nil
	if v := c.ImagesSetting(); v != nil {
		t.Errorf("nothing set: %v, want nil (the provider decides)", v)
	}
}
