// Command gogitlabkeys lists a project's client keys with go-gitlab, the
// client glab is built on, and prints them as indented JSON: the
// whole-process yardstick for 'errtrack keys list --json'. GITLAB_HOST and
// GITLAB_TOKEN name the server and the token.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"

	gitlab "gitlab.com/gitlab-org/api/client-go"
)

func main() {
	project := flag.Int("p", 1, "project ID")
	flag.Parse()
	c, err := gitlab.NewClient(os.Getenv("GITLAB_TOKEN"), gitlab.WithBaseURL(os.Getenv("GITLAB_HOST")+"/api/v4"))
	if err != nil {
		fail(err)
	}
	var all []*gitlab.ErrorTrackingClientKey
	opt := &gitlab.ListClientKeysOptions{ListOptions: gitlab.ListOptions{PerPage: 100, Page: 1}}
	for {
		keys, resp, err := c.ErrorTracking.ListClientKeys(*project, opt)
		if err != nil {
			fail(err)
		}
		all = append(all, keys...)
		if resp.NextPage == 0 {
			break
		}
		opt.Page = int64(resp.NextPage)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(all); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gogitlabkeys:", err)
	os.Exit(1)
}
