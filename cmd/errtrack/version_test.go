package main

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

func TestBuildVersion(t *testing.T) {
	t.Parallel()
	const rev = "4a74bad1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7"
	vcs := func(modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	for _, tc := range []struct {
		name string
		info *debug.BuildInfo
		want string
	}{
		{"no build information", nil, "dev"},
		{"go install @version", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, "v1.2.3"},
		{"stamped from a checkout", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261123071126-4a74bad1c2d3+dirty"}, Settings: vcs("true")}, "v0.0.0-20261123071126-4a74bad1c2d3+dirty"},
		{"revision only, clean", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("false")}, "4a74bad1c2d3"},
		{"revision only, uncommitted changes", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("true")}, "4a74bad1c2d3-dirty"},
		{"nothing recorded (go test, -buildvcs=false)", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "dev"},
	} {
		if got := buildVersion(tc.info); got != tc.want {
			t.Errorf("%s: buildVersion = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// The version first, on a line of its own (scripts read it), then the
// commit, the Go release and the platform, as gh version tells them.
func TestVersionFlagAndCommand(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	want := "errtrack " + appVersion() + "\n"
	for _, args := range [][]string{{"--version"}, {"-v"}, {"version"}} {
		r := c.run("", args...)
		lines := strings.Split(r.stdout, "\n")
		if r.code != 0 || !strings.HasPrefix(r.stdout, want) || r.stderr != "" || len(lines) != 4 ||
			!strings.HasPrefix(lines[1], "commit ") || lines[2] != "built with "+runtime.Version()+" for "+runtime.GOOS+"/"+runtime.GOARCH {
			t.Errorf("errtrack %v: exit %d, stdout %q, stderr %q; want 0, %q and the build", args, r.code, r.stdout, r.stderr, want)
		}
	}
}

func TestCommitLine(t *testing.T) {
	t.Parallel()
	info := &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "4a74bad1c2d3e4f5a6b7"}, {Key: "vcs.time", Value: "2026-11-23T07:11:26Z"}, {Key: "vcs.modified", Value: "true"}}}
	if got := commitLine(info); got != "commit 4a74bad1c2d3 of 2026-11-23, with uncommitted changes" {
		t.Errorf("commitLine = %q", got)
	}
	if got := commitLine(nil); !strings.HasPrefix(got, "commit unknown") {
		t.Errorf("commitLine(nil) = %q", got)
	}
}

// TestVersionFromLdflags checks the variable the Makefile and .goreleaser.yaml
// stamp: -X names it, and a misspelt name would be ignored without an error.
func TestVersionFromLdflags(t *testing.T) {
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "errtrack")
	if out, err := exec.Command("go", "build", "-ldflags", "-X main.version=v9.8.7-ldflags -X main.commit=abcdef123456 -X main.date=2026-01-02", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, arg := range []string{"--version", "version"} {
		out, err := exec.Command(bin, arg).CombinedOutput()
		if err != nil || !strings.HasPrefix(string(out), "errtrack v9.8.7-ldflags\ncommit abcdef123456 of 2026-01-02\n") {
			t.Errorf("errtrack %s: %q, %v; want \"errtrack v9.8.7-ldflags\" and the commit stamped", arg, out, err)
		}
	}
}
