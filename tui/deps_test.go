package tui

import (
	"os/exec"
	"strings"
	"testing"
)

// The console reaches the keyring only through Deps: it does not link
// go-keyring or a D-Bus client, not even through the error words.
func TestConsoleDoesNotLinkTheKeyring(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"github.com/zalando/go-keyring", "github.com/godbus/dbus", "github.com/errtrack/errtrack/keyring\n"} {
		if strings.Contains(string(out)+"\n", bad) {
			t.Errorf("tui depends on %s", strings.TrimSpace(bad))
		}
	}
}
