package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/spf13/cobra"
)

// version is set by the Makefile and release builds with
// -ldflags "-X main.version=...". It is empty in a plain go build or
// go install, where appVersion falls back to the build information.
var version string

// commit and date are the commit and its date, stamped the same way (the
// Makefile, release builds); empty, they come from the build information.
var commit, date string

// appVersion is the version errtrack reports and sends in its User-Agent.
func appVersion() string {
	if version != "" {
		return version
	}
	info, _ := debug.ReadBuildInfo()
	return buildVersion(info)
}

// buildVersion reads the version the go command recorded in the binary:
// the module version for `go install ...@v1.2.3` (or a pseudo-version
// stamped from the checkout), else the VCS revision with a -dirty mark
// for uncommitted changes, else "dev" (go test, or -buildvcs=false).
func buildVersion(info *debug.BuildInfo) string {
	if info == nil {
		return "dev"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "-dirty"
			}
		}
	}
	if rev == "" {
		return "dev"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	return rev + dirty
}

func (a *app) versionCmd() *cobra.Command {
	return &cobra.Command{
		Use: "version", Short: "Print the version", Args: noArgs,
		Run: func(*cobra.Command, []string) { a.printVersion() },
	}
}

// printVersion prints the version on the first line, as scripts read it,
// then what gh's version also tells: the commit and its date, and the Go
// release and the platform the binary was built with.
func (a *app) printVersion() {
	info, _ := debug.ReadBuildInfo()
	fmt.Fprintf(a.stdout, "errtrack %s\n%s\nbuilt with %s for %s/%s\n", appVersion(), commitLine(info), runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// commitLine names the commit the binary was built from, with its date
// and whether the checkout had uncommitted changes.
func commitLine(info *debug.BuildInfo) string {
	if commit != "" {
		line := "commit " + commit
		if date != "" {
			line += " of " + date
		}
		return line
	}
	var rev, when, modified string
	if info != nil {
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.time":
				when = s.Value
			case "vcs.modified":
				modified = s.Value
			}
		}
	}
	switch {
	case rev == "" && info != nil && info.Main.Version != "" && info.Main.Version != "(devel)":
		return "commit not recorded: built from the module " + info.Main.Path + "@" + info.Main.Version
	case rev == "":
		return "commit unknown (built without version control information)"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	line := "commit " + rev
	if t, err := time.Parse(time.RFC3339, when); err == nil {
		line += " of " + t.UTC().Format(time.DateOnly)
	}
	if modified == "true" {
		line += ", with uncommitted changes"
	}
	return line
}

// addVersionFlag gives the root command --version and -v. Cobra's own flag
// (set by Command.Version) prints "errtrack version X"; changing that with
// SetVersionTemplate pulls in text/template, whose reflection turns off the
// linker's dead code elimination: 3.7 MB more binary.
func (a *app) addVersionFlag(root *cobra.Command) {
	show := root.Flags().BoolP("version", "v", false, "print the version")
	run := root.RunE
	root.RunE = func(cmd *cobra.Command, args []string) error {
		if *show {
			a.printVersion()
			return nil
		}
		return run(cmd, args)
	}
}
