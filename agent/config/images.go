package config

import (
	"fmt"
	"strconv"
	"strings"
)

// ImagesSetting is whether the configured model reads images, as the
// configuration says: its [models."name"] images, else the top-level
// images; nil when neither is set, which leaves it to the provider (its
// table of model families, or Ollama's /api/show).
func (c *Config) ImagesSetting() *bool {
	if v := c.ModelSettings().Images; v != nil {
		return v
	}
	return c.Images
}

// writeImages prints the images setting for agent config.
func (c *Config) writeImages(b *strings.Builder, line func(key, value string)) {
	switch {
	case c.ModelSettings().Images != nil:
		fmt.Fprintf(b, "%-44s # %s\n", "images = "+strconv.FormatBool(*c.ModelSettings().Images), c.modelOrigin("images"))
	case c.Images != nil:
		line("images", strconv.FormatBool(*c.Images))
	default:
		fmt.Fprintf(b, "# images: not set; the provider decides whether %s reads images (its model family, or Ollama's /api/show)\n", c.Model)
	}
}
