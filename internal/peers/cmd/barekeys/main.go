// Command barekeys lists a project's client keys as a glab-style command
// does (net/http, encoding/json, X-Next-Page), as a table or with -json as
// indented JSON: the whole-process yardstick for 'errtrack keys list'.
// GITLAB_HOST and GITLAB_TOKEN name the server and the token.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"text/tabwriter"
)

type key struct {
	ID        int64  `json:"id"`
	Active    bool   `json:"active"`
	PublicKey string `json:"public_key"`
	DSN       string `json:"sentry_dsn"`
}

func main() {
	project := flag.Int("p", 1, "project ID")
	asJSON := flag.Bool("json", false, "print JSON")
	flag.Parse()
	host, token := os.Getenv("GITLAB_HOST"), os.Getenv("GITLAB_TOKEN")
	var all []key
	for page := 1; page > 0; {
		u := fmt.Sprintf("%s/api/v4/projects/%d/error_tracking/client_keys?per_page=100&page=%d", host, *project, page)
		req, err := http.NewRequest(http.MethodGet, u, nil)
		if err != nil {
			fail(err)
		}
		req.Header.Set("PRIVATE-TOKEN", token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			fail(err)
		}
		var keys []key
		err = json.NewDecoder(resp.Body).Decode(&keys)
		resp.Body.Close()
		if err != nil {
			fail(err)
		}
		all = append(all, keys...)
		page, _ = strconv.Atoi(resp.Header.Get("X-Next-Page"))
	}
	if *asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(all); err != nil {
			fail(err)
		}
		return
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tACTIVE\tPUBLIC KEY\tDSN")
	for _, k := range all {
		fmt.Fprintf(tw, "%d\t%v\t%s\t%s\n", k.ID, k.Active, k.PublicKey, k.DSN)
	}
	tw.Flush()
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "barekeys:", err)
	os.Exit(1)
}
