package retry

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fastPolicy keeps backoffs short so that tests about attempt counts run fast.
func fastPolicy() Policy {
	return Policy{MaxRetries: 4, WaitMin: time.Millisecond, WaitMax: 5 * time.Millisecond, MaxRetryAfter: time.Minute}
}

// statusServer answers the given statuses in turn (the last one repeats) and counts attempts.
func statusServer(t *testing.T, statuses ...int) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(n.Add(1)) - 1
		_, _ = io.Copy(io.Discard, r.Body)
		w.WriteHeader(statuses[min(i, len(statuses)-1)])
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func send(t *testing.T, s *Sender, ctx context.Context, method, url string) (*http.Response, error) {
	t.Helper()
	return sendClass(t, s, ctx, method, url, ByMethod)
}

func sendClass(t *testing.T, s *Sender, ctx context.Context, method, url string, class Class) (*http.Response, error) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, method, url, nil)
	require.NoError(t, err)
	resp, err := s.Send(req, nil, class)
	if resp != nil {
		t.Cleanup(func() { resp.Body.Close() })
	}
	return resp, err
}

// TestAttemptsByClassAndStatus is the status half of the table in
// https://github.com/signkit/signkit-go/blob/main/docs/retries.md.
func TestAttemptsByClassAndStatus(t *testing.T) {
	tests := []struct {
		method   string
		class    Class
		statuses []int
		attempts int32
		final    int
		resent   bool
	}{
		{http.MethodPost, ByMethod, []int{500, 200}, 1, 500, false},
		{http.MethodPost, ByMethod, []int{502, 200}, 1, 502, false},
		{http.MethodPost, ByMethod, []int{503, 200}, 1, 503, false},
		{http.MethodPost, ByMethod, []int{504, 200}, 1, 504, false},
		{http.MethodPost, ByMethod, []int{429, 200}, 1, 429, false},
		{http.MethodPost, NotWritten, []int{503, 200}, 1, 503, false},
		{http.MethodPost, Always, []int{503, 200}, 2, 200, true},
		{http.MethodPost, Always, []int{429, 502, 200}, 3, 200, true},
		{http.MethodPost, Always, []int{500, 200}, 1, 500, false},
		{http.MethodPost, DuplicateSafe, []int{503, 504, 200}, 3, 200, true},
		{http.MethodPost, DuplicateSafe, []int{429, 200}, 2, 200, true},
		{http.MethodPost, DuplicateSafe, []int{500, 200}, 1, 500, false},
		{http.MethodPost, ConflictSafe, []int{502, 409}, 2, 409, true},
		{http.MethodPost, ConflictSafe, []int{409, 200}, 1, 409, false},
		{http.MethodGet, ByMethod, []int{503, 503, 200}, 3, 200, true},
		{http.MethodGet, ByMethod, []int{502, 504, 200}, 3, 200, true},
		{http.MethodGet, ByMethod, []int{500, 200}, 1, 500, false},
		{http.MethodGet, ByMethod, []int{404, 200}, 1, 404, false},
		{http.MethodGet, ByMethod, []int{200}, 1, 200, false},
		{http.MethodPut, ByMethod, []int{503, 200}, 2, 200, true},
		{http.MethodDelete, ByMethod, []int{429, 200}, 2, 200, true},
		{http.MethodGet, ByMethod, []int{503}, 5, 503, true}, // 1 + MaxRetries, then the last answer is returned
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s %s %v", tt.method, tt.class, tt.statuses), func(t *testing.T) {
			t.Parallel()
			srv, n := statusServer(t, tt.statuses...)
			resp, err := sendClass(t, NewSender(srv.Client(), fastPolicy(), nil), context.Background(), tt.method, srv.URL, tt.class)
			require.NoError(t, err)
			assert.Equal(t, tt.final, resp.StatusCode)
			assert.Equal(t, tt.attempts, n.Load())
			assert.Equal(t, int(tt.attempts), Attempts(resp))
			assert.Equal(t, tt.resent, Resent(resp))
		})
	}
}

func TestClassFor(t *testing.T) {
	for _, tt := range []struct {
		class  Class
		method string
		want   Class
	}{
		{ByMethod, http.MethodGet, Idempotent}, {ByMethod, http.MethodPut, Idempotent},
		{ByMethod, http.MethodDelete, Idempotent}, {ByMethod, http.MethodHead, Idempotent},
		{ByMethod, http.MethodPost, NotWritten}, {ByMethod, http.MethodPatch, NotWritten},
		{Always, http.MethodPost, Always}, {DuplicateSafe, http.MethodPost, DuplicateSafe},
	} {
		assert.Equal(t, tt.want, tt.class.For(tt.method), "%s %s", tt.class, tt.method)
	}
	assert.True(t, NotWritten.ChangesState())
	assert.True(t, DuplicateSafe.ChangesState())
	assert.True(t, ConflictSafe.ChangesState())
	assert.False(t, Always.ChangesState())
	assert.False(t, Idempotent.ChangesState())
}

// dropServer closes every connection after reading the request, without an answer.
func dropServer(t *testing.T) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// TestDroppedConnection: a connection lost after the request was written
// is re-sent for every class but NotWritten, and the error says the
// request may have arrived.
func TestDroppedConnection(t *testing.T) {
	srv, n := dropServer(t)
	s := NewSender(srv.Client(), fastPolicy(), nil)
	for _, tt := range []struct {
		method   string
		class    Class
		attempts int32
	}{
		{http.MethodPost, ByMethod, 1},
		{http.MethodPost, NotWritten, 1},
		{http.MethodPost, DuplicateSafe, 5},
		{http.MethodPost, ConflictSafe, 5},
		{http.MethodPost, Always, 5},
		{http.MethodGet, ByMethod, 5},
	} {
		n.Store(0)
		_, err := sendClass(t, s, context.Background(), tt.method, srv.URL, tt.class)
		require.Error(t, err)
		assert.Equal(t, tt.attempts, n.Load(), "%s %s", tt.method, tt.class)
		assert.True(t, Written(err), "%s %s: the server read the request", tt.method, tt.class)
	}
}

// TestConnectionRefusedIsNotSent: a POST whose dial failed never reached
// the server, so even a NotWritten POST is re-sent, and Written says so.
func TestConnectionRefusedIsNotSent(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	l.Close()
	_, err = http.Post("http://"+addr, "text/plain", nil)
	require.Error(t, err)
	assert.True(t, NotSent(err))
	retry, cerr := ShouldRetry(context.Background(), NotWritten, nil, err, true)
	assert.NoError(t, cerr)
	assert.True(t, retry, "a refused POST never reached the server: retried")
	assert.False(t, NotSent(io.ErrUnexpectedEOF))

	var dials atomic.Int32
	hc := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, a string) (net.Conn, error) {
		dials.Add(1)
		return (&net.Dialer{}).DialContext(ctx, network, addr)
	}}}
	_, err = sendClass(t, NewSender(hc, fastPolicy(), nil), context.Background(), http.MethodPost, "http://"+addr, NotWritten)
	require.Error(t, err)
	assert.Equal(t, int32(5), dials.Load(), "every attempt failed to dial: all re-sent")
	assert.False(t, Written(err))
}

// TestNotWrittenDecision covers ShouldRetry's error half for NotWritten:
// an error after the request was written is final, one before is not.
func TestNotWrittenDecision(t *testing.T) {
	ctx := context.Background()
	lost := io.ErrUnexpectedEOF
	for _, tt := range []struct {
		class   Class
		written bool
		want    bool
	}{
		{NotWritten, true, false}, {NotWritten, false, true}, {ByMethod, true, false},
		{DuplicateSafe, true, true}, {ConflictSafe, true, true}, {Always, true, true}, {Idempotent, true, true},
	} {
		got, err := ShouldRetry(ctx, tt.class, nil, lost, tt.written)
		require.NoError(t, err)
		assert.Equal(t, tt.want, got, "%s written=%v", tt.class, tt.written)
	}
	got, _ := ShouldRetry(ctx, DuplicateSafe, nil, ErrRedirect, false)
	assert.False(t, got, "a refused redirect is never retried")
	assert.True(t, Written(errors.New("not from Send")), "an unknown error counts as written")
}

// TestInProcessTransportCountsAsWritten: a RoundTripper that net/http does
// not trace (an in-process server) fails a POST that is then not re-sent.
func TestInProcessTransportCountsAsWritten(t *testing.T) {
	var n atomic.Int32
	hc := &http.Client{Transport: inProcessRT(func(*http.Request) (*http.Response, error) {
		n.Add(1)
		return nil, errors.New("in-process connection dropped")
	})}
	_, err := sendClass(t, NewSender(hc, fastPolicy(), nil), context.Background(), http.MethodPost, "http://in.process/x", ByMethod)
	require.Error(t, err)
	assert.Equal(t, int32(1), n.Load())
	assert.True(t, Written(err))
}

// inProcessRT is a RoundTripper that net/http does not trace.
type inProcessRT func(*http.Request) (*http.Response, error)

func (f inProcessRT) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestShouldRetryStopsOnCanceledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	retry, err := ShouldRetry(ctx, Idempotent, &http.Response{StatusCode: 503}, nil, true)
	assert.False(t, retry)
	assert.ErrorIs(t, err, context.Canceled)
	assert.False(t, Transient(ErrRedirect))
}

func TestBackoff(t *testing.T) {
	p := Policy{WaitMin: 100 * time.Millisecond, WaitMax: time.Second, MaxRetryAfter: 30 * time.Second}
	for i, want := range []time.Duration{100, 200, 400, 800, 1000, 1000} {
		want *= time.Millisecond
		for range 20 {
			d := Backoff(p, i, nil)
			assert.GreaterOrEqual(t, d, want/2)
			assert.LessOrEqual(t, d, want)
		}
	}
	ra := func(status int, v string) *http.Response {
		return &http.Response{StatusCode: status, Header: http.Header{"Retry-After": {v}}}
	}
	assert.Equal(t, 2*time.Second, Backoff(p, 0, ra(503, "2")))
	assert.Equal(t, 7*time.Second, Backoff(p, 3, ra(429, "7")))
	assert.Equal(t, 30*time.Second, Backoff(p, 0, ra(429, "3600")), "cut to MaxRetryAfter")
	// Past what a time.Duration holds in seconds (9223372036): still
	// MaxRetryAfter, never a negative wait, which would mean at once.
	assert.Equal(t, 30*time.Second, Backoff(p, 0, ra(429, "9223372037")), "overflow waits MaxRetryAfter")
	assert.Equal(t, 30*time.Second, Backoff(p, 0, ra(503, "18446744073")), "overflow waits MaxRetryAfter")
	assert.Equal(t, 30*time.Second, Backoff(p, 0, ra(503, "99999999999999999999")), "past int64 waits MaxRetryAfter")
	assert.LessOrEqual(t, Backoff(p, 0, ra(502, "9")), 100*time.Millisecond, "only 429 and 503 carry Retry-After")
	date := time.Now().Add(5 * time.Second).UTC().Format(http.TimeFormat)
	d := Backoff(p, 0, ra(503, date))
	assert.InDelta(t, 5*time.Second, d, float64(1100*time.Millisecond))
}

func TestRetryAfterIsWaited(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var n atomic.Int32
		rt := inProcessRT(func(r *http.Request) (*http.Response, error) {
			if n.Add(1) == 1 {
				return &http.Response{StatusCode: 503, Header: http.Header{"Retry-After": {"2"}},
					Body: io.NopCloser(strings.NewReader("")), Request: r}, nil
			}
			return &http.Response{StatusCode: 200, Body: io.NopCloser(strings.NewReader("ok")), Request: r}, nil
		})
		s := NewSender(&http.Client{Transport: rt}, DefaultPolicy(), nil)
		start := time.Now()
		resp, err := sendClass(t, s, context.Background(), http.MethodPost, "https://api.test/x", Always)
		require.NoError(t, err)
		assert.Equal(t, 200, resp.StatusCode)
		assert.Equal(t, 2*time.Second, time.Since(start), "the fake clock moved exactly by Retry-After")
	})
}

func TestCancelDuringBackoff(t *testing.T) {
	srv, _ := statusServer(t, 503)
	p := DefaultPolicy()
	p.WaitMin, p.WaitMax = 10*time.Second, 10*time.Second
	s := NewSender(srv.Client(), p, nil)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	_, err := send(t, s, ctx, http.MethodGet, srv.URL)
	elapsed := time.Since(start)
	require.ErrorIs(t, err, context.Canceled)
	assert.Less(t, elapsed, 100*time.Millisecond+50*time.Millisecond, "the wait ends with the context")
}

func TestBodyReopenedForEveryAttempt(t *testing.T) {
	payload := bytes.Repeat([]byte("0123456789"), 10_000)
	var got [][]byte
	var lengths []int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got, lengths = append(got, b), append(lengths, r.ContentLength)
		if len(got) < 3 {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}))
	defer srv.Close()
	var opens int
	body := func() (io.ReadCloser, int64, error) {
		opens++
		return io.NopCloser(bytes.NewReader(payload)), int64(len(payload)), nil
	}
	req, _ := http.NewRequest(http.MethodPost, srv.URL, nil)
	resp, err := NewSender(srv.Client(), fastPolicy(), nil).Send(req, body, DuplicateSafe)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, 3, opens)
	require.Len(t, got, 3)
	for i := range got {
		assert.Equal(t, payload, got[i], "attempt %d got the whole body", i+1)
		assert.Equal(t, int64(len(payload)), lengths[i], "exact Content-Length, not chunked")
	}
}

func TestBodyOpenErrorStops(t *testing.T) {
	boom := errors.New("boom")
	req, _ := http.NewRequest(http.MethodPost, "http://127.0.0.1:1", nil)
	_, err := NewSender(http.DefaultClient, fastPolicy(), nil).Do(req, func() (io.ReadCloser, int64, error) { return nil, 0, boom })
	assert.ErrorIs(t, err, boom)
}

func TestRetryAfterParse(t *testing.T) {
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"0", 0, true}, {"120", 2 * time.Minute, true}, {"-1", 0, false}, {"", 0, false}, {"soon", 0, false},
		{"Sun, 22 Nov 2026 10:00:30 GMT", 30 * time.Second, true},
		{"Sun, 22 Nov 2026 09:00:00 GMT", 0, true},
		{"+5", 0, false}, {"1.5", 0, false}, {" 7 ", 7 * time.Second, true},
		{"9223372036", 9223372036 * time.Second, true},
		{"9223372037", math.MaxInt64, true}, {"18446744073", math.MaxInt64, true},
		{"99999999999999999999", math.MaxInt64, true},
	}
	for _, tt := range tests {
		d, ok := RetryAfter(tt.in, now)
		assert.Equal(t, tt.ok, ok, tt.in)
		assert.Equal(t, tt.want, d, tt.in)
	}
}
