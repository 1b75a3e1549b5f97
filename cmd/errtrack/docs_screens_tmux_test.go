package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestDocsScreens: every screen the docs show in a block marked "screen"
// is what errtrack --demo draws at 100x16 in a real terminal (tmux) after
// the keys the info string names ("screen Down Enter"). Every non-empty line
// of the sample is on the screen, in order; ports and keys may differ.
func TestDocsScreens(t *testing.T) {
	requireTool(t, "tmux")
	type shot struct {
		where string
		keys  []string
		lines []string
	}
	var shots []shot
	for _, page := range docPages(t) {
		text, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range fencedBlocks(string(text)) {
			f := strings.Fields(b.info)
			if len(f) == 0 || f[0] != "screen" {
				continue
			}
			var lines []string
			for _, l := range b.lines {
				if l != "" {
					lines = append(lines, l)
				}
			}
			shots = append(shots, shot{fmt.Sprintf("%s:%d", strings.TrimPrefix(page, "../../"), b.line), f[1:], lines})
		}
	}
	if len(shots) < 4 {
		t.Fatalf("only %d screen blocks found", len(shots))
	}
	bin := binary(t)
	for i, sh := range shots {
		t.Run(sh.where, func(t *testing.T) {
			s := tmuxSession{t: t, socket: fmt.Sprintf("errtrack-docs-%d-%d", os.Getpid(), i)}
			t.Cleanup(func() { killTmux(s.socket) })
			dir := t.TempDir()
			cmd := exec.Command("tmux", "-L", s.socket, "-f", "/dev/null", "new-session", "-d", "-s", "e2e", "-x", "100", "-y", "16", "sleep 60")
			cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "TERM=xterm-256color", "HOME=" + dir, "ERRTRACK_CONFIG_DIR=" + dir + "/config",
				"ERRTRACK_STATE_DIR=" + dir + "/state", "XDG_CONFIG_HOME=" + dir + "/xdg", "XDG_STATE_HOME=" + dir + "/xdg"}
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("starting tmux: %v\n%s", err, out)
			}
			s.tmux("respawn-pane", "-k", "-t", "e2e", bin+" --demo; sleep 30")
			s.waitFor("partner/sdk")
			s.waitFor("integrated · on · 1 key") // the last row's state: every row read
			for _, k := range sh.keys {
				s.keys(k)
				time.Sleep(300 * time.Millisecond)
			}
			var screen string
			missing := ""
			for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
				screen = s.screen()
				if missing = firstMissing(sh.lines, screen); missing == "" {
					return
				}
			}
			t.Errorf("the screen lacks %q (in this order); it shows:\n%s", missing, screen)
		})
	}
}

// firstMissing is the first line of want not found, in order, in screen.
func firstMissing(want []string, screen string) string {
	got := strings.Split(screen, "\n")
	j := 0
	for _, w := range want {
		nw := normalize(w)
		for j < len(got) && normalize(got[j]) != nw {
			j++
		}
		if j == len(got) {
			return w
		}
		j++
	}
	return ""
}
