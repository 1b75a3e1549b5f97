// Command testsum reads `go test -json` on stdin and prints what a person
// needs: each package's result, the output of failed tests, the names of
// skipped ones, and a closing "N passed, N failed, N skipped" line. It exits
// non-zero when anything failed.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
)

type event struct {
	Action  string
	Package string
	Test    string
	Output  string
	Elapsed float64
}

func main() {
	outputs := map[string]*strings.Builder{}
	var passed, failed, skipped int
	var skips, failures []string
	pkgFailed := false
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			fmt.Println(sc.Text()) // build errors arrive as plain text
			continue
		}
		key := e.Package + " " + e.Test
		switch e.Action {
		case "output":
			b := outputs[key]
			if b == nil {
				b = &strings.Builder{}
				outputs[key] = b
			}
			b.WriteString(e.Output)
		case "pass", "fail", "skip":
			if e.Test == "" {
				status := map[string]string{"pass": "ok  ", "fail": "FAIL", "skip": "ok  "}[e.Action]
				fmt.Printf("%s\t%s\t%.2fs\n", status, e.Package, e.Elapsed)
				if e.Action == "fail" {
					pkgFailed = true
					if b := outputs[key]; b != nil {
						fmt.Print(b.String())
					}
				}
				continue
			}
			switch e.Action {
			case "pass":
				passed++
			case "fail":
				failed++
				failures = append(failures, key)
				if b := outputs[key]; b != nil {
					fmt.Print(b.String())
				}
			case "skip":
				skipped++
				reason := ""
				if b := outputs[key]; b != nil {
					reason = strings.TrimSpace(lastLine(b.String()))
				}
				skips = append(skips, key+": "+reason)
			}
			delete(outputs, key)
		}
	}
	sort.Strings(skips)
	for _, s := range skips {
		fmt.Println("skipped:", s)
	}
	for _, f := range failures {
		fmt.Println("failed:", f)
	}
	fmt.Printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped)
	if failed > 0 || pkgFailed {
		os.Exit(1)
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" && !strings.HasPrefix(l, "---") {
			return l
		}
	}
	return ""
}
