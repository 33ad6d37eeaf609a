package mockserver

import (
	"bufio"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// logSink collects log output from several goroutines.
type logSink struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *logSink) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logSink) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A client that sends its body at a byte a second is cut off once the
// progress deadline passes, and the cut is logged.
func TestListenerCutsTricklingBody(t *testing.T) {
	t.Parallel()
	logs := &logSink{}
	s := Start(t, WithBodyProgressTimeout(300*time.Millisecond), WithLogger(slog.New(slog.NewTextHandler(logs, nil))))
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.URL(), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	fmt.Fprintf(conn, "POST /mock/users HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
	closed := make(chan time.Duration, 1)
	go func() {
		_, _ = io.Copy(io.Discard, conn) // until the server closes
		closed <- time.Since(start)
	}()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case d := <-closed:
			if d < 250*time.Millisecond || d > 3*time.Second {
				t.Fatalf("connection closed after %v; want about the 300ms deadline", d)
			}
			if log := logs.String(); !strings.Contains(log, "stalled") || !strings.Contains(log, "/mock/users") {
				t.Fatalf("no log line of the cut: %q", log)
			}
			return
		case <-tick.C:
			_, _ = conn.Write([]byte(" ")) // a byte a second
			if time.Since(start) > 5*time.Second {
				t.Fatal("the trickling client is still connected after 5 s")
			}
		}
	}
}

// A body that keeps arriving is never cut, however long it takes in all.
func TestListenerLetsSlowSteadyBodyThrough(t *testing.T) {
	t.Parallel()
	s := Start(t, WithBodyProgressTimeout(300*time.Millisecond), WithLogger(slog.New(slog.DiscardHandler)))
	body := `{"name":"Slow","email":"slow@example.com"` + strings.Repeat(" ", 64<<10) + `}`
	pr, pw := io.Pipe()
	go func() {
		for i := 0; i < len(body); i += 4 << 10 { // 17 chunks 100 ms apart: 1.7 s in all
			_, _ = pw.Write([]byte(body[i:min(i+4<<10, len(body))]))
			time.Sleep(100 * time.Millisecond)
		}
		pw.Close()
	}()
	req, err := http.NewRequest(http.MethodPost, s.URL()+"/mock/users", pr)
	if err != nil {
		t.Fatal(err)
	}
	req.ContentLength = int64(len(body))
	req.Header.Set("Content-Type", "application/json")
	start := time.Now()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode/100 != 2 || time.Since(start) < time.Second {
		t.Fatalf("slow upload: %d after %v", resp.StatusCode, time.Since(start))
	}
}

// An idle keep-alive connection is closed after the idle timeout.
func TestListenerIdleTimeout(t *testing.T) {
	t.Parallel()
	s := Start(t, WithIdleTimeout(200*time.Millisecond))
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.URL(), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "GET /mock/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	start := time.Now()
	_ = conn.SetReadDeadline(time.Now().Add(3 * time.Second))
	if _, err := br.ReadByte(); err != io.EOF {
		t.Fatalf("idle connection: %v, want EOF", err)
	}
	if d := time.Since(start); d < 150*time.Millisecond || d > 2*time.Second {
		t.Fatalf("idle connection closed after %v; want about 200ms", d)
	}
}
