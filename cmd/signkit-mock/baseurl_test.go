package main

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/casefiles"
	"github.com/signkit/signkit-go/mockserver"
)

// startBinary runs the command with args and answers the URL of its first
// line, draining the rest of its output.
func startBinary(t *testing.T, args ...string) string {
	t.Helper()
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go func() {
		_ = run(ctx, args, pw, io.Discard)
		pw.Close()
	}()
	first := make(chan string, 1)
	go func() {
		br := bufio.NewReader(pr)
		line, _ := br.ReadString('\n')
		first <- strings.TrimSpace(line)
		_, _ = io.Copy(io.Discard, br)
	}()
	select {
	case line := <-first:
		base, ok := strings.CutPrefix(line, "listening on ")
		if !ok {
			t.Fatalf("first line %q", line)
		}
		return base
	case <-time.After(30 * time.Second):
		t.Fatal("no first line within 30 s")
	}
	return ""
}

// Listening on every interface (a container), the mock names itself
// localhost, which a client can reach; -base-url names it as the
// container's peers do, and that name passes the Host rule.
func TestBaseURLFlag(t *testing.T) {
	t.Parallel()
	base := startBinary(t, "-addr", "0.0.0.0:0")
	if !strings.HasPrefix(base, "http://localhost:") {
		t.Fatalf("listening on all interfaces, the mock calls itself %s", base)
	}
	if resp, err := http.Get(base + "/mock/health"); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("the mock is not reachable at the name it gives itself, %s: %v", base, err)
	} else {
		resp.Body.Close()
	}
	l, err := net.Listen("tcp", "127.0.0.1:0") // a free port for the named mock
	if err != nil {
		t.Fatal(err)
	}
	free := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	l.Close()
	named := startBinary(t, "-addr", "127.0.0.1:"+free, "-base-url", "http://signkit-mock:"+free+"/")
	if named != "http://signkit-mock:"+free {
		t.Fatalf("with -base-url the mock calls itself %s", named)
	}
	// The base URL's name passes the Host rule, another does not; both
	// reach the server through the loopback address it listens on.
	for host, want := range map[string]int{"signkit-mock:" + free: http.StatusOK, "other-service:" + free: http.StatusMisdirectedRequest} {
		if got := statusWithHost(t, "http://127.0.0.1:"+free+"/mock/health", host); got != want {
			t.Errorf("Host %s: %d, want %d", host, got, want)
		}
	}
	for _, bad := range []string{"signkit-mock:8080", "ftp://x", "http://x/path"} {
		if _, err := parseFlags([]string{"-base-url", bad}, io.Discard); err == nil {
			t.Errorf("-base-url %q: no error", bad)
		}
	}
}

// binaryClient starts the command with args and answers its base URL, an
// SDK client with the default credentials (which every mock shares) and a
// context that ends after 20 s or with the test.
func binaryClient(t *testing.T, args ...string) (string, *signkit.Client, context.Context) {
	t.Helper()
	base := startBinary(t, args...)
	client, ctx := clientOf(t, base)
	return base, client, ctx
}

// clientOf answers an SDK client of the mock at base with the default
// credentials (which every mock shares) and a context that ends after 20 s
// or with the test.
func clientOf(t *testing.T, base string) (*signkit.Client, context.Context) {
	t.Helper()
	defaults := mockserver.New()
	creds := defaults.DefaultCredentials().Credentials()
	defaults.Close()
	client, err := signkit.NewClient(signkit.Config{Endpoints: signkit.LocalEndpoints(base), Credentials: creds})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return client, ctx
}

// With -clock manual and no -job-delay a queued job runs at once, as in
// Go tests, so a client's Wait returns; -job-delay still holds.
func TestManualClockRunsJobsAtOnce(t *testing.T) {
	t.Parallel()
	_, client, ctx := binaryClient(t, "-addr", "127.0.0.1:0", "-clock", "manual")
	job, err := client.CaseFiles.Create(ctx, &casefiles.CaseFile{Title: "T", Signers: []casefiles.Signer{{Name: "A"}},
		Documents: []casefiles.Document{{Name: "a.pdf", Title: "A"}}}, casefiles.BytesUpload("a.pdf", mockserver.SamplePDF("A")))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.CaseFiles.Wait(ctx, job); err != nil {
		t.Fatalf("Wait on a manual clock without -job-delay: %v", err)
	}
	if o, err := parseFlags([]string{"-clock", "manual", "-job-delay", "2s"}, io.Discard); err != nil || !o.jobDelaySet || o.jobDelay != 2*time.Second {
		t.Fatalf("-job-delay 2s: %+v, %v", o, err)
	}
	if _, err := parseFlags([]string{"-job-delay", "-1s"}, io.Discard); err == nil {
		t.Error("-job-delay -1s: no error")
	}
}
