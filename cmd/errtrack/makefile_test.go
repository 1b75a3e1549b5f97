package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// make screenshots without a screenshot tool stops before building,
// saying how to give one (it called a path outside the repository).
func TestMakeScreenshotsNeedsTheTool(t *testing.T) {
	mk := requireTool(t, "make")
	run := func(args ...string) (string, error) {
		cmd := exec.Command(mk, args...)
		cmd.Dir = "../.."
		cmd.Env = append(os.Environ(), "MAKEFLAGS=", "SCREENSHOT=")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	for _, tool := range []string{"", "/nonexistent/screenshot"} {
		out, err := run("-s", "screenshot-tool", "SCREENSHOT="+tool)
		if err == nil || !strings.Contains(out, "SCREENSHOT=") {
			t.Errorf("SCREENSHOT=%q: %v\n%s", tool, err, out)
		}
	}
	// The check comes first: nothing is built without the tool.
	out, _ := run("-n", "screenshots")
	check, build := strings.Index(out, "needs a screenshot tool"), strings.Index(out, "go build")
	if check < 0 || build < 0 || check > build {
		t.Errorf("make -n screenshots does not check for the tool before building:\n%s", out)
	}
}
