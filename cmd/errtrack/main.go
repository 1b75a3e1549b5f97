// Command errtrack is a terminal console and a set of scriptable commands for
// the error tracking settings and client keys of GitLab projects.
package main

import "os"

func main() {
	os.Exit(newApp().run(os.Args[1:]))
}
