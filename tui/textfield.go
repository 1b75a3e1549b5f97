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

// fieldView draws a text field in the console's palette: the field keeps
// the styles it was made with (a question's field is made before the
// terminal says its colour), so they are set as it is drawn.
func fieldView(in textinput.Model, st Styles) string {
	in.SetStyles(st.Input)
	return in.View()
}
