package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver"
)

// statusWithHost answers the status of a GET of url sent with the Host
// header host.
func statusWithHost(t *testing.T, url, host string) int {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Host = host
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// readBanner reads the first line and the rest of the banner.
func readBanner(t *testing.T, r io.Reader) (string, []string) {
	t.Helper()
	sc := bufio.NewScanner(r)
	lines := make(chan string, 32)
	go func() {
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var got []string
	deadline := time.After(30 * time.Second)
	for len(got) < 10 {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("output ended early: %q", redacted(got))
			}
			got = append(got, l)
		case <-deadline:
			t.Fatalf("no banner within 30s: %q", redacted(got))
		}
	}
	m := regexp.MustCompile(`^listening on (http://127\.0\.0\.1:[0-9]+)$`).FindStringSubmatch(got[0])
	if m == nil {
		t.Fatalf("first line %q", got[0])
	}
	go func() {
		for range lines { // keep draining
		}
	}()
	return m[1], got
}

// redacted is the banner with the values of its secret lines hidden, for
// failure messages: test output must not carry the default secrets.
func redacted(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		if k, _, ok := strings.Cut(l, " "); ok && strings.Contains(k, "secret") {
			l = k + " [redacted]"
		}
		out[i] = l
	}
	return out
}

func health(t *testing.T, base string) {
	t.Helper()
	resp, err := http.Get(base + "/mock/health")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !strings.Contains(string(b), `"status":"ok"`) {
		t.Fatalf("health: %d %s", resp.StatusCode, b)
	}
}

func TestRunServesAndStops(t *testing.T) {
	t.Parallel()
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-addr", "127.0.0.1:0", "-clock", "manual", "-start", "2026-01-01T00:00:00Z"}, pw, io.Discard)
		pw.Close()
	}()
	base, banner := readBanner(t, pr)
	health(t, base)
	text := strings.Join(banner, "\n")
	for _, want := range []string{"forms     " + base + "/collect/api", "auth      " + base + "/auth", "send      " + base + "/send",
		"webhook   " + base + "/webhook", "sign      " + base, "client_id mock-client-id", "api_key   mock-api-key"} {
		if !strings.Contains(text, want) {
			t.Errorf("banner lacks %q:\n%s", want, strings.Join(redacted(banner), "\n"))
		}
	}
	resp, err := http.Get(base + "/mock/clock")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), "2026-01-01T00:00:00Z") {
		t.Errorf("manual clock: %s", b)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run: %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("run did not stop")
	}
}

func TestRunRejectsBadFlags(t *testing.T) {
	t.Parallel()
	tests := [][]string{{"-clock", "sundial"}, {"-max-body-bytes", "0"}, {"extra"}, {"-clock", "manual", "-start", "noon", "-addr", "127.0.0.1:0"},
		{"-limits", "Forms"}, {"-limits", "Widgets=3"}, {"-limits", "Forms=0"}, {"-limits", "Forms=x"}}
	for _, args := range tests {
		if err := run(context.Background(), args, io.Discard, io.Discard); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}

func TestParseLimits(t *testing.T) {
	t.Parallel()
	o, err := parseFlags([]string{"-limits", "Forms=3, Submissions=-1", "-limits", "CaseFiles=9"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if o.limits != (mockserver.Limits{Forms: 3, Submissions: -1, CaseFiles: 9}) {
		t.Fatalf("limits %+v", o.limits)
	}
}

// -allow-host admits more names in the Host header (repeatable, commas
// between names, ports ignored); others get 421 on every route. A value
// that is not a host name is refused.
func TestAllowHostFlag(t *testing.T) {
	t.Parallel()
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		_ = run(ctx, []string{"-addr", "127.0.0.1:0", "-allow-host", "mock, Mock.Internal:8765", "-allow-host", "[fd00::5]"}, pw, io.Discard)
		pw.Close()
	}()
	base, _ := readBanner(t, pr)
	for host, want := range map[string]int{"mock": 200, "MOCK:1": 200, "mock.internal": 200, "[fd00::5]:8765": 200,
		"localhost": 200, strings.TrimPrefix(base, "http://"): 200, "evil.example": 421, "mock.evil.example": 421} {
		for _, path := range []string{"/mock/credentials", "/api/v1/casefiles"} {
			if got := statusWithHost(t, base+path, host); (want == 421) != (got == 421) {
				t.Errorf("GET %s with Host %s: %d, want %d", path, host, got, want)
			}
		}
	}
	for _, bad := range []string{"http://mock", "mock/x", "", "a,,b", "*"} {
		if _, err := parseFlags([]string{"-allow-host", bad}, io.Discard); err == nil {
			t.Errorf("-allow-host %q: no error", bad)
		}
	}
}

func TestControlOffFlag(t *testing.T) {
	t.Parallel()
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = run(ctx, []string{"-addr", "127.0.0.1:0", "-control=false"}, pw, io.Discard); pw.Close() }()
	base, _ := readBanner(t, pr)
	resp, err := http.Get(base + "/mock/health")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 404 {
		t.Fatalf("control API served with -control=false: %d", resp.StatusCode)
	}
}

// TestBinaryStopsOnSIGTERM builds the command and runs it as a process.
func TestBinaryStopsOnSIGTERM(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	bin := buildBinary(t)
	cmd := exec.Command(bin, "-addr", "127.0.0.1:0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill() }()
	base, _ := readBanner(t, stdout)
	health(t, base)
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	select {
	case err := <-waited:
		if err != nil {
			t.Fatalf("exit after SIGTERM: %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("no exit within 15s of SIGTERM")
	}
}

// releaseBuild answers the environment and the go build flags of the
// released binary, as .goreleaser.yaml gives them
// (TestReleaseBuildMatchesGoreleaser holds the two equal). The tests build
// the binary they run this way, so that they test what users download, and
// so that CI's own build of the release archive reuses their compiled
// packages instead of compiling the mock once more.
func releaseBuild() (env, flags []string) {
	return []string{"CGO_ENABLED=0"}, []string{"-trimpath", "-ldflags=-s -w"}
}

// buildBinary builds the command into a temporary folder, as the release
// is built (releaseBuild), and answers its path; without go on PATH it
// skips, unless CI is set.
func buildBinary(t *testing.T) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("go not on PATH on CI")
		}
		t.Skip("go not on PATH: cannot build the binary")
	}
	bin := filepath.Join(t.TempDir(), "signkit-mock")
	env, flags := releaseBuild()
	cmd := exec.Command(goBin, append(append([]string{"build"}, flags...), "-o", bin, ".")...)
	cmd.Env = append(os.Environ(), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	return bin
}

// The binary's exit statuses: -h prints the usage and exits 0 (without
// an error line), a bad flag exits 2 with the usage, and so do the
// trigger subcommand's.
func TestBinaryUsageAndExitStatus(t *testing.T) {
	bin := buildBinary(t)
	for _, tc := range []struct {
		args   []string
		code   int
		has    string
		hasNot string
	}{
		{[]string{"-h"}, 0, "usage: signkit-mock [flags]", "help requested"},
		{[]string{"-nope"}, 2, "usage: signkit-mock [flags]", ""},
		{[]string{"trigger", "-h"}, 0, "usage: signkit-mock trigger TYPE", "help requested"},
		{[]string{"trigger", "sign.casefile.completed", "--nope"}, 2, "usage: signkit-mock trigger TYPE", ""},
		{[]string{"trigger", "sign.casefile.archived", "--to", "http://127.0.0.1:1", "--secret", "s"}, 2, "unknown event type", ""},
	} {
		out, err := exec.Command(bin, tc.args...).CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != tc.code || !strings.Contains(string(out), tc.has) || (tc.hasNot != "" && strings.Contains(string(out), tc.hasNot)) {
			t.Errorf("signkit-mock %v: exit %d, want %d; output:\n%s", tc.args, code, tc.code, out)
		}
	}
}
