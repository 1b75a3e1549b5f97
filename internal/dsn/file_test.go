package dsn

import (
	"strings"
	"testing"
)

// A dotenv file variable: the DSN is found on its line, however it is
// written, and replaced there without touching the other lines.
func TestInFileAndReplace(t *testing.T) {
	old := "https://glet_old@gitlab.example.com:443/errortracking/api/v1/projects/5"
	content := "# app settings\r\n" +
		"APP_ENV=production\r\n" +
		`export SENTRY_DSN="https://glet_old@GITLAB.example.com/errortracking/api/v1/projects/5/"` + "\r\n" +
		"BACKUP_DSN = 'https://glet_other@gitlab.example.com:443/errortracking/api/v1/projects/5'\r\n" +
		"OLD=" + old + " # kept for the worker\r\n" +
		old + "\r\n" +
		"NOT A=" + old + "\r\n" +
		"BROKEN=\"" + old + "\r\n"
	found := InFile(content)
	var got []string
	for _, f := range found {
		got = append(got, f.Key+"@"+string(rune('0'+f.N)))
	}
	if strings.Join(got, " ") != "SENTRY_DSN@3 BACKUP_DSN@4 OLD@5 @6" {
		t.Errorf("InFile found %v", got)
	}
	repl := "https://glet_new@gitlab.example.com:443/errortracking/api/v1/projects/5"
	out, n := ReplaceInFile(content, old, repl)
	want := "# app settings\r\n" +
		"APP_ENV=production\r\n" +
		`export SENTRY_DSN="` + repl + `"` + "\r\n" +
		"BACKUP_DSN = 'https://glet_other@gitlab.example.com:443/errortracking/api/v1/projects/5'\r\n" +
		"OLD=" + repl + " # kept for the worker\r\n" +
		repl + "\r\n" +
		"NOT A=" + old + "\r\n" +
		"BROKEN=\"" + old + "\r\n"
	if n != 3 || out != want {
		t.Errorf("ReplaceInFile = %d\n%q\nwant\n%q", n, out, want)
	}
	if out, n := ReplaceInFile("A=1\nB=2", old, repl); n != 0 || out != "A=1\nB=2" {
		t.Errorf("a file without the DSN changed: %q %d", out, n)
	}
}

// A file longer than anything GitLab stores is read up to a bound and the
// rest kept as it is.
func TestReplaceInFileBounded(t *testing.T) {
	old := "https://k@h/p/1"
	big := strings.Repeat("X=1\n", maxFileLines) + "SENTRY_DSN=" + old + "\n"
	if len(InFile(big)) != 0 {
		t.Error("a line past the bound was read")
	}
	out, n := ReplaceInFile(big, old, "https://k2@h/p/1")
	if n != 0 || out != big {
		t.Errorf("past the bound: %d changes", n)
	}
}
