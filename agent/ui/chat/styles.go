package chat

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// styles are the looks of the chat, built for a dark or a light
// background. Colour is dropped by the renderer when the terminal has
// none or NO_COLOR is set; the layout never depends on colour alone
// (marks like ›, ✓, ✗ and indentation tell things apart too).
type styles struct {
	user, userMark       lipgloss.Style
	prose, dim, faint    lipgloss.Style
	heading, bold, ital  lipgloss.Style
	code, codeBlock      lipgloss.Style
	link, quote, bullet  lipgloss.Style
	ok, fail, warn, tool lipgloss.Style
	diffAdd, diffDel     lipgloss.Style
	diffHunk             lipgloss.Style
	status, mode         lipgloss.Style
	modeAuto, modePlan   lipgloss.Style
	dialog, key          lipgloss.Style
	selected             lipgloss.Style
	chip                 lipgloss.Style // an @path attachment
	// syntax colours of the highlighter
	kw, str, num, comment, typ lipgloss.Style
}

func newStyles(dark bool) styles {
	ld := lipgloss.LightDark(dark)
	c := func(light, darkc string) color.Color { return ld(lipgloss.Color(light), lipgloss.Color(darkc)) }
	accent := c("#5A3FC0", "#B4A0FF")
	green := c("#1B7F3A", "#7BD88F")
	red := c("#B3261E", "#FF7A7A")
	yellow := c("#8A6100", "#E6C35C")
	cyan := c("#00708A", "#6CCFE6")
	grey := c("#6B6B6B", "#8A8A8A")
	s := lipgloss.NewStyle
	return styles{
		user:      s().Bold(true),
		userMark:  s().Foreground(accent).Bold(true),
		prose:     s(),
		dim:       s().Foreground(grey),
		faint:     s().Faint(true),
		heading:   s().Bold(true).Foreground(accent),
		bold:      s().Bold(true),
		ital:      s().Italic(true),
		code:      s().Foreground(cyan),
		codeBlock: s(),
		link:      s().Underline(true).Foreground(cyan),
		quote:     s().Foreground(grey).Italic(true),
		bullet:    s().Foreground(accent),
		ok:        s().Foreground(green),
		fail:      s().Foreground(red),
		warn:      s().Foreground(yellow),
		tool:      s().Bold(true),
		diffAdd:   s().Foreground(green),
		diffDel:   s().Foreground(red),
		diffHunk:  s().Foreground(cyan),
		status:    s().Foreground(grey),
		mode:      s().Foreground(grey),
		modeAuto:  s().Foreground(yellow).Bold(true),
		modePlan:  s().Foreground(cyan).Bold(true),
		dialog:    s().Border(lipgloss.RoundedBorder()).BorderForeground(yellow).Padding(0, 1),
		key:       s().Bold(true).Foreground(accent),
		selected:  s().Foreground(accent).Bold(true),
		chip:      s().Foreground(cyan).Underline(true),
		kw:        s().Foreground(c("#8A3FC0", "#C792EA")),
		str:       s().Foreground(green),
		num:       s().Foreground(c("#A04000", "#F78C6C")),
		comment:   s().Foreground(grey).Italic(true),
		typ:       s().Foreground(cyan),
	}
}
