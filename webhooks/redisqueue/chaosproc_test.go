package redisqueue_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// chaosBuild builds the receiver once per test binary, with the race
// detector when the tests run with it.
var chaosBuild struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

// TestMain removes the chaos receiver's build once the tests are done.
func TestMain(m *testing.M) {
	code := m.Run()
	if chaosBuild.dir != "" {
		_ = os.RemoveAll(chaosBuild.dir)
	}
	os.Exit(code)
}

func buildChaosReceiver(t *testing.T) string {
	t.Helper()
	chaosBuild.once.Do(func() {
		chaosBuild.dir, chaosBuild.err = os.MkdirTemp("", "chaosreceiver")
		if chaosBuild.err != nil {
			return
		}
		chaosBuild.bin = filepath.Join(chaosBuild.dir, "chaosreceiver")
		args := []string{"build", "-o", chaosBuild.bin}
		if raceEnabled {
			args = append(args, "-race")
		}
		cmd := exec.Command("go", append(args, "./internal/chaosreceiver")...)
		if out, err := cmd.CombinedOutput(); err != nil {
			chaosBuild.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if chaosBuild.err != nil {
		t.Fatal(chaosBuild.err)
	}
	return chaosBuild.bin
}

// receiverProc is one receiver process; start runs it again on the same
// port after a kill.
type receiverProc struct {
	name string
	port int
	logs []string // one file per start

	mu     sync.Mutex
	cmd    *exec.Cmd
	exited chan struct{}
}

// start runs the receiver, on the port of its first start, and returns
// once it listens. It may be called from any goroutine; the test's cleanup
// kills what it started.
func (p *receiverProc) start(r *chaos) error {
	if p.port == 0 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return err
		}
		p.port = l.Addr().(*net.TCPAddr).Port
		l.Close()
	}
	logPath := filepath.Join(r.dir, fmt.Sprintf("%s-%d.log", p.name, len(p.logs)))
	logFile, err := os.Create(logPath)
	if err != nil {
		return err
	}
	defer logFile.Close()
	cmd := exec.Command(r.bin, "-listen", "127.0.0.1:"+strconv.Itoa(p.port),
		"-queue-redis", r.proxy.Addr(), "-count-redis", r.counter.Addr, "-name", p.name,
		"-calls-prefix", chaosCalls, "-workers", strconv.Itoa(chaosWorkers), "-visibility", chaosVisibility.String())
	cmd.Env = append(os.Environ(), "CHAOS_SECRET="+fleetSecret)
	cmd.Stderr = logFile
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan struct{})
	listening := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "listening on ") {
				listening <- sc.Text()
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
		_ = cmd.Wait()
		close(exited)
	}()
	p.mu.Lock()
	p.cmd, p.exited, p.logs = cmd, exited, append(p.logs, logPath)
	p.mu.Unlock()
	select {
	case <-listening:
		return nil
	case <-exited:
		return fmt.Errorf("receiver %s exited before listening; its log: %s", p.name, readTail(logPath))
	case <-time.After(30 * time.Second):
		return fmt.Errorf("receiver %s did not listen within 30 s", p.name)
	}
}

// post delivers event i, signed now as the fleet test signs it; true on a
// 2xx.
func (p *receiverProc) post(client *http.Client, id string, i int) bool {
	req := delivery(i, id)
	req.RequestURI, req.Host = "", ""
	req.URL.Scheme, req.URL.Host = "http", "127.0.0.1:"+strconv.Itoa(p.port)
	resp, err := client.Do(req)
	if err != nil {
		return false
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode/100 == 2
}

// kill ends the process with SIGKILL, as a crash would.
func (p *receiverProc) kill() {
	p.mu.Lock()
	cmd, exited := p.cmd, p.exited
	p.mu.Unlock()
	if cmd == nil {
		return
	}
	_ = cmd.Process.Kill()
	<-exited
}

// term asks the process to shut down and waits for it to exit.
func (p *receiverProc) term() error {
	p.mu.Lock()
	cmd, exited := p.cmd, p.exited
	p.mu.Unlock()
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-exited:
	case <-time.After(20 * time.Second):
		return fmt.Errorf("no exit 20 s after SIGTERM")
	}
	if !cmd.ProcessState.Success() {
		return fmt.Errorf("exited with %v; its log: %s", cmd.ProcessState, readTail(p.logs[len(p.logs)-1]))
	}
	return nil
}

func (p *receiverProc) dumpLog(t *testing.T) {
	for _, f := range p.logs {
		t.Logf("log of %s (%s):\n%s", p.name, f, readTail(f))
	}
}

// readTail returns the last 4 KiB of a file.
func readTail(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	if len(b) > 4<<10 {
		b = b[len(b)-4<<10:]
	}
	return string(b)
}
