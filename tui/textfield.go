package tui

import "charm.land/bubbles/v2/textinput"

// newTextInput is a text field with a steady cursor: a blinking one needs a
// timer running for as long as the field has focus.
func newTextInput(prompt, placeholder string) textinput.Model {
	ti := textinput.New()
	ti.Prompt = prompt
	ti.Placeholder = placeholder
	st := ti.Styles()
	st.Cursor.Blink = false
	ti.SetStyles(st)
	return ti
}
