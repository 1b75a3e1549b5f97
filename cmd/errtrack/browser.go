package main

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"runtime"
	"strings"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/projectscope"
)

// openURL opens url in the user's browser: $BROWSER when set (as gh
// does), else the platform's opener. Over SSH without $BROWSER there is no
// browser here to open: the caller prints the address. It does not wait
// for the browser.
func (a *app) openURL(url string) error {
	if b := strings.TrimSpace(a.getenv("BROWSER")); b != "" {
		return exec.Command(b, url).Start()
	}
	if a.getenv("SSH_CONNECTION") != "" || a.getenv("SSH_TTY") != "" {
		return errors.New("over SSH: no browser here")
	}
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", url)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		cmd = exec.Command("xdg-open", url)
	}
	return cmd.Start()
}

// openWeb opens url, or prints it when no browser opens.
func (a *app) openWeb(url string) {
	if err := a.openURL(url); err != nil {
		fmt.Fprintf(a.stdout, "Open in your browser: %s\n", explain.Text(url))
		return
	}
	fmt.Fprintf(a.stderr, "Opened %s in your browser.\n", explain.Text(url))
}

// openProjectPage opens the project's error tracking settings page: its
// path is read first (a project given by ID).
func (a *app) openProjectPage(ctx context.Context, c *apiclient.Client, host string, ref apiclient.ProjectRef) error {
	p, err := projectscope.ResolveProject(ctx, c, ref)
	if err != nil {
		return err
	}
	a.rememberHost(host)
	a.openWeb(projectscope.SettingsPage(host, p))
	return nil
}
