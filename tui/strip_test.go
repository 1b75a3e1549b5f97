package tui

import "github.com/charmbracelet/x/ansi"

func ansiStrip(s string) string { return ansi.Strip(s) }
