package main

import (
	"archive/zip"
	"bytes"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSlowGoInstallFromModuleProxy does what a user does,
// `go install github.com/errtrack/errtrack/cmd/errtrack@VERSION`, against a
// file-based module proxy that holds this checkout as a test version, then
// runs the installed `errtrack --version`. It fails if go.mod gets a replace
// directive (go install refuses them) or if the version is not reported.
//
// Offline: dependencies come from the local module cache, itself laid out as
// a module proxy; the configured GOPROXY comes last, for anything missing.
// Slow the first time (a -trimpath build of everything, 25-30 s on two
// cores); -trimpath keys the build cache by module version rather than by
// the fresh module cache's directory, so later runs take about 2 s.
func TestSlowGoInstallFromModuleProxy(t *testing.T) {
	t.Parallel()
	goBin := requireTool(t, "go")
	requireTool(t, "git")
	const (
		modPath     = "github.com/errtrack/errtrack"
		testVersion = "v0.0.0-installtest"
	)
	root := goEnv(t, goBin, "GOMOD")
	if root == "" || root == os.DevNull {
		t.Fatal("not inside the errtrack module")
	}
	root = filepath.Dir(root)

	proxy := t.TempDir()
	writeProxyModule(t, proxy, root, modPath, testVersion)

	gobin, modcache, work := t.TempDir(), t.TempDir(), t.TempDir()
	cmd := exec.Command(goBin, "install", "-trimpath", modPath+"/cmd/errtrack@"+testVersion)
	cmd.Dir = work // outside the checkout, as a user would be
	cmd.Env = append(os.Environ(),
		"GOPROXY="+fileURL(proxy)+","+fileURL(filepath.Join(goEnv(t, goBin, "GOMODCACHE"), "cache", "download"))+","+goEnv(t, goBin, "GOPROXY"),
		// A fresh module cache, so an earlier run's copy of the test
		// version is never reused; -modcacherw lets TempDir remove it.
		"GOMODCACHE="+modcache,
		"GOFLAGS=-mod=mod -modcacherw",
		// The test version is in no checksum database. The dependencies
		// come from the local module cache, checked when it was filled
		// (go install @version does not read the module's go.sum), and
		// sum.golang.org may be unreachable: no checksum database at all.
		"GONOSUMDB="+modPath, "GOSUMDB=off",
		"GOPRIVATE=", "GONOPROXY=", "GOWORK=off", "GOTOOLCHAIN=local",
		"GOBIN="+gobin,
	)
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go install: %v\n%s", err, out)
	}
	t.Logf("go install took %v", time.Since(start).Round(100*time.Millisecond))

	out, err := exec.Command(filepath.Join(gobin, "errtrack"), "--version").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "errtrack "+testVersion+"\ncommit not recorded: built from the module "+modPath+"@"+testVersion+"\n") {
		t.Fatalf("installed errtrack --version: %q, %v; want a first line %q and the module", out, err, "errtrack "+testVersion)
	}
}

func goEnv(t *testing.T, goBin, key string) string {
	t.Helper()
	out, err := exec.Command(goBin, "env", key).Output()
	if err != nil {
		t.Fatalf("go env %s: %v", key, err)
	}
	return strings.TrimSpace(string(out))
}

func fileURL(dir string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(dir)}).String()
}

// writeProxyModule puts the module at root into proxy as version, in the
// GOPROXY layout: @v/list, .info, .mod and a zip of the files a commit
// would hold (tracked, plus new files git does not ignore).
func writeProxyModule(t *testing.T, proxy, root, modPath, version string) {
	t.Helper()
	ls := exec.Command("git", "ls-files", "--cached", "--others", "--exclude-standard", "-z")
	ls.Dir = root
	names, err := ls.Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	// A folder with a go.mod of its own (internal/peers) is another module:
	// a module's zip leaves it out, as the module proxy's does.
	var nested []string
	for _, name := range strings.Split(string(names), "\x00") {
		if dir, ok := strings.CutSuffix(name, "/go.mod"); ok {
			nested = append(nested, dir+"/")
		}
	}
	inNested := func(name string) bool {
		for _, dir := range nested {
			if strings.HasPrefix(name, dir) {
				return true
			}
		}
		return false
	}
	var zbuf bytes.Buffer
	zw := zip.NewWriter(&zbuf)
	seen := map[string]bool{}
	for _, name := range strings.Split(string(names), "\x00") {
		if name == "" || seen[name] || inNested(name) {
			continue // git lists a file once per stage while a merge is unresolved
		}
		seen[name] = true
		path := filepath.Join(root, filepath.FromSlash(name))
		if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
			continue // deleted in the work tree, or a symlink (not allowed in module zips)
		}
		w, err := zw.Create(modPath + "@" + version + "/" + name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		_, err = io.Copy(w, f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(proxy, filepath.FromSlash(modPath), "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{
		"list":            []byte(version + "\n"),
		version + ".info": []byte(`{"Version":"` + version + `","Time":"2026-01-01T00:00:00Z"}`),
		version + ".mod":  gomod,
		version + ".zip":  zbuf.Bytes(),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
