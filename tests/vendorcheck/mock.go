package vendorcheck

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// ErrMock is wrapped by the errors of building, starting and driving the
// mock server.
var ErrMock = errors.New("vendorcheck: mock server")

// Mock is a running signkit-mock process.
type Mock struct {
	URL  string // the base URL, from the "listening on" line
	cmd  *exec.Cmd
	done chan struct{}
	http *http.Client
}

// ReleaseBuild answers the environment and the go build flags of the
// released signkit-mock, as .goreleaser.yaml gives them
// (TestBuildMockAsReleased holds the two equal), so that the vendor's
// collections and the Python walk run against what users download. The
// binary's own tests build it the same way (releaseBuild in
// cmd/signkit-mock), without importing this package: the binary's module
// would otherwise require this one, with its test libraries, in the graph
// that `go install …@latest` reads.
func ReleaseBuild() (env, flags []string) {
	return []string{"CGO_ENABLED=0"}, []string{"-trimpath", "-ldflags=-s -w"}
}

// BuildMock compiles ./cmd/signkit-mock of the module at repoRoot into dir,
// as the release is built (ReleaseBuild), and returns the binary's path.
func BuildMock(ctx context.Context, repoRoot, dir string) (string, error) {
	bin := filepath.Join(dir, "signkit-mock")
	env, flags := ReleaseBuild()
	args := append(append([]string{"build"}, flags...), "-o", bin, "./cmd/signkit-mock")
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = repoRoot
	cmd.Env = append(os.Environ(), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("%w: go build: %w: %s", ErrMock, err, strings.TrimSpace(string(out)))
	}
	return bin, nil
}

// StartMock starts the mock binary on a free loopback port with the given
// extra flags and waits for its "listening on" line. The rest of its output
// (which holds the default credentials) is discarded. Stop ends it.
func StartMock(ctx context.Context, bin string, flags ...string) (*Mock, error) {
	args := append([]string{"-addr", "127.0.0.1:0"}, flags...)
	cmd := exec.Command(bin, args...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrMock, err)
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%w: start: %w", ErrMock, err)
	}
	m := &Mock{cmd: cmd, done: make(chan struct{}), http: &http.Client{Timeout: 20 * time.Second}}
	lines := make(chan string, 1)
	go func() {
		br := bufio.NewReader(stdout)
		line, _ := br.ReadString('\n')
		lines <- line
		_, _ = io.Copy(io.Discard, br)
	}()
	go func() { _ = cmd.Wait(); close(m.done) }()
	select {
	case line := <-lines:
		u, ok := strings.CutPrefix(strings.TrimSpace(line), "listening on ")
		if !ok || !strings.HasPrefix(u, "http://") {
			m.Stop()
			return nil, fmt.Errorf("%w: unexpected first line %q", ErrMock, strings.TrimSpace(line))
		}
		m.URL = u
		return m, nil
	case <-ctx.Done():
		m.Stop()
		return nil, fmt.Errorf("%w: waiting for the listening line: %w", ErrMock, ctx.Err())
	case <-time.After(30 * time.Second):
		m.Stop()
		return nil, fmt.Errorf("%w: no listening line within 30 s", ErrMock)
	}
}

// Stop interrupts the mock and waits for it to end (killing it after 10 s).
func (m *Mock) Stop() {
	if m.cmd.Process == nil {
		return
	}
	_ = m.cmd.Process.Signal(os.Interrupt)
	select {
	case <-m.done:
	case <-time.After(10 * time.Second):
		_ = m.cmd.Process.Kill()
		<-m.done
	}
}

// Credentials is the default API user of the mock, from GET /mock/credentials.
type Credentials struct {
	ClientID     string `json:"clientId"`
	ClientSecret string `json:"clientSecret"`
	APIKey       string `json:"apiKey"`
	APISecret    string `json:"apiSecret"`
}

// Credentials reads the default credentials from the control API.
func (m *Mock) Credentials(ctx context.Context) (Credentials, error) {
	var c Credentials
	err := m.do(ctx, http.MethodGet, m.URL+"/mock/credentials", nil, "", "", &c)
	return c, err
}

// do sends a request and decodes a 2xx JSON answer into out (when not nil).
// A non-2xx answer is an error naming the status and the start of the body.
func (m *Mock) do(ctx context.Context, method, url string, body io.Reader, contentType, token string, out any) error {
	req, err := http.NewRequestWithContext(ctx, method, url, body)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrMock, err)
	}
	req.Header.Set("Accept", "application/json")
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := m.http.Do(req)
	if err != nil {
		return fmt.Errorf("%w: %s %s: %w", ErrMock, method, req.URL.Path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return fmt.Errorf("%w: %s %s: read: %w", ErrMock, method, req.URL.Path, err)
	}
	if resp.StatusCode/100 != 2 {
		return &HTTPError{Method: method, Path: req.URL.Path, Status: resp.StatusCode, Body: truncate(string(b), 300)}
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(b, out); err != nil {
		return fmt.Errorf("%w: %s %s: decode: %w", ErrMock, method, req.URL.Path, err)
	}
	return nil
}

// HTTPError is a non-2xx answer of the mock to a step between two stages.
type HTTPError struct {
	Method, Path string
	Status       int
	Body         string // at most 300 bytes
}

// Error says which request failed, with its status and the start of the body.
func (e *HTTPError) Error() string {
	return fmt.Sprintf("vendorcheck: mock server: %s %s: status %d: %s", e.Method, e.Path, e.Status, e.Body)
}

// Unwrap makes errors.Is(err, ErrMock) hold.
func (e *HTTPError) Unwrap() error { return ErrMock }

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
