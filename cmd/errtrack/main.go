// Command errtrack is a terminal console and a set of scriptable commands for
// the error tracking settings and client keys of GitLab projects.
package main

import "os"

func main() {
	if len(os.Args) > 1 && os.Args[1] == jqChildArg {
		os.Exit(jqChildMain(os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(newApp().run(os.Args[1:]))
}
