package mockserver

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unsafe"

	"github.com/signkit/signkit-go/mockserver/internal/traffic"
)

// stackBudget is the most stack, in bytes, that the mock's handler chain may
// use between the listener's handler and its ResponseWriter on the way of a
// public form page. net/http's own frames around a handler (the connection's
// loop below, the header write above) leave a handler about 1.5 KiB of a
// connection goroutine's 8 KiB stack; a chain deeper than that makes every
// request after a garbage collection copy its stack to a new one twice the size
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#stack-depth).
// The race detector's instrumented frames are about 1.5 times as large, and so
// is its budget.
func stackBudget() uintptr {
	if raceDetector {
		return 1650
	}
	return 1100
}

// TestStackDepthOfAPublicPage measures how deep the mock's handler chain
// is when a public form page is written, and holds it within stackBudget.
func TestStackDepthOfAPublicPage(t *testing.T) {
	t.Setenv(traffic.DirEnv, "") // the chain users run, without the OpenAPI check's recorder
	s := New()
	defer s.Close()
	tok := login(t, s, s.DefaultCredentials())
	f := activeForm(t, s, tok, sampleForm())
	req := httptest.NewRequest(http.MethodGet, strings.TrimPrefix(f.PublicURL, s.URL()), nil)
	w := &depthWriter{h: http.Header{}}
	depth := make(chan uintptr)
	go func() {
		// At the bottom of a deep call, the goroutine's stack is large and
		// half used: it neither grows nor shrinks (moves) meanwhile, so
		// the addresses of locals compare.
		var top uintptr
		deepThen(64, func() {
			top = stackPointer()
			s.HTTPServer().Handler.ServeHTTP(w, req)
		})
		depth <- top - w.lowest
	}()
	d := <-depth
	if w.status != http.StatusOK || w.lowest == 0 {
		t.Fatalf("GET %s: status %d, written: %v", req.URL, w.status, w.lowest != 0)
	}
	t.Logf("handler chain: %d bytes of stack (budget %d)", d, stackBudget())
	if d > stackBudget() {
		t.Errorf("the handler chain of a public page uses %d bytes of stack, over the budget of %d", d, stackBudget())
	}
}

// stackPointer answers the address of a local of its own frame: the depth
// of the stack where it is called, give or take its own small frame.
//
//go:noinline
func stackPointer() uintptr {
	var x byte
	return uintptr(unsafe.Pointer(&x))
}

// deepThen calls fn below n frames of 1 KiB each.
//
//go:noinline
func deepThen(n int, fn func()) byte {
	var pad [1024]byte
	if n == 0 {
		fn()
		return pad[0]
	}
	return deepThen(n-1, fn) + pad[n%len(pad)]
}

// depthWriter is a ResponseWriter that remembers the status and the
// lowest stack address it was written from.
type depthWriter struct {
	h      http.Header
	status int
	lowest uintptr
}

func (d *depthWriter) Header() http.Header { return d.h }

func (d *depthWriter) WriteHeader(code int) {
	d.note()
	d.status = code
}

func (d *depthWriter) Write(b []byte) (int, error) {
	d.note()
	if d.status == 0 {
		d.status = http.StatusOK
	}
	return len(b), nil
}

func (d *depthWriter) note() {
	if sp := stackPointer(); d.lowest == 0 || sp < d.lowest {
		d.lowest = sp
	}
}
