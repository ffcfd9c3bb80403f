package config

import (
	"fmt"
	"strconv"
	"strings"
)

// Chat configures the chat.
type Chat struct {
	// Notify is how the chat calls a person who is not looking at it
	// (the terminal lost focus) when a long turn ends or an approval or
	// a question waits: ChatNotifyAuto, ChatNotifyBell, ChatNotifyOSC9
	// or ChatNotifyOff.
	Notify string `toml:"notify"`
}

// The values of chat.notify.
const (
	// ChatNotifyAuto is a desktop notification (OSC 9) on terminals
	// known to show one, else the bell.
	ChatNotifyAuto = "auto"
	ChatNotifyBell = "bell" // the terminal's bell (BEL)
	ChatNotifyOSC9 = "osc9" // a desktop notification, OSC 9
	ChatNotifyOff  = "off"
)

func (c *Config) validateChat() error {
	switch c.Chat.Notify {
	case ChatNotifyAuto, ChatNotifyBell, ChatNotifyOSC9, ChatNotifyOff:
		return nil
	}
	return fmt.Errorf("chat.notify = %s (from %s): use auto, bell, osc9 or off", strconv.Quote(c.Chat.Notify), c.Origin("chat.notify"))
}

// notifyRaised reports whether a project's chat.notify asks for more
// than the user's: a project may always turn the bell off, and needs
// trust for anything else over the user's choice (a cloned repository
// must not make the terminal ring that its user silenced).
func notifyRaised(v, user string) bool {
	return v != user && v != ChatNotifyOff
}

// writeChat prints the [chat] table for Write.
func (c *Config) writeChat(b *strings.Builder, line func(key, value string)) {
	b.WriteString("\n[chat]\n")
	line("chat.notify", strconv.Quote(c.Chat.Notify))
}
