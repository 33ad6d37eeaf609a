package mockserver

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/mockserver/internal/faults"
	"github.com/signkit/signkit-go/mockserver/internal/journal"
)

// subscriptionCount answers how many subscriptions the default customer has.
func subscriptionCount(t *testing.T, s *Server, tok string) int {
	t.Helper()
	var page struct{ Items []subscriptionJSON }
	if st, b := whCall(t, s, "GET", subsPath, tok, nil, &page); st != 200 {
		t.Fatalf("list: %d %s", st, b)
	}
	return len(page.Items)
}

func TestFaultPhases(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		fault      Fault
		wantStatus int
		wantStored int
	}{
		{"500 after the effect", Fault{Method: "POST", Path: subsPath, Status: 500, Phase: FaultAfter}, 500, 1},
		{"503 before the effect", Fault{Method: "POST", Path: subsPath, Status: 503, Phase: FaultBefore}, 503, 0},
		{"default phase is before", Fault{Path: subsPath, Status: 429, RetryAfter: 7}, 429, 0},
		{"wildcard path", Fault{Path: "/webhook/*", Status: 502}, 502, 0},
		{"any method", Fault{Method: "*", Path: subsPath, Status: 500}, 500, 0},
		{"other method: no fault", Fault{Method: "GET", Path: subsPath, Status: 500}, 201, 1},
		{"other path: no fault", Fault{Path: "/webhook/api/v1/other", Status: 500}, 201, 1},
		{"delay only, after", Fault{Path: subsPath, DelayMs: 20, Phase: FaultAfter}, 201, 1},
		{"delay only, before", Fault{Path: subsPath, DelayMs: 20}, 201, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := whServer(t)
			tok := whAdminToken(t, s)
			if err := s.InjectFault(tc.fault); err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			req := newWebhookRequest(t, s, "POST", subsPath, tok, `{"endpoint":"https://example.test/h","eventTypes":["sign.signer.signed"]}`)
			resp, err := (&http.Client{Transport: s.Transport()}).Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			_ = resp.Body.Close()
			if resp.StatusCode != tc.wantStatus {
				t.Errorf("status %d %s, want %d", resp.StatusCode, body, tc.wantStatus)
			}
			s.ClearFaults()
			if n := subscriptionCount(t, s, tok); n != tc.wantStored {
				t.Errorf("%d subscriptions stored, want %d", n, tc.wantStored)
			}
			if ra := resp.Header.Get("Retry-After"); (tc.fault.RetryAfter > 0) != (ra == "7") {
				t.Errorf("Retry-After %q", ra)
			}
			if tc.fault.DelayMs > 0 && time.Since(start) < time.Duration(tc.fault.DelayMs)*time.Millisecond {
				t.Errorf("answered after %v, before the delay", time.Since(start))
			}
			if tc.wantStatus >= 500 && !strings.Contains(string(body), `"error":"injected_fault"`) {
				t.Errorf("fault body %s", body)
			}
		})
	}
}

func TestFaultTimesCountDown(t *testing.T) {
	t.Parallel()
	s := whServer(t)
	tok := whAdminToken(t, s)
	if err := s.InjectFault(Fault{Method: "GET", Path: subsPath, Status: 503, Times: 2}); err != nil {
		t.Fatal(err)
	}
	var got []int
	for range 4 {
		st, _ := whCall(t, s, "GET", subsPath, tok, nil, nil)
		got = append(got, st)
	}
	if want := []int{503, 503, 200, 200}; !equalInts(got, want) {
		t.Errorf("statuses %v, want %v", got, want)
	}
	if len(s.Faults()) != 0 {
		t.Errorf("a used-up fault remains: %+v", s.Faults())
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestFaultDropInProcess(t *testing.T) {
	t.Parallel()
	for _, phase := range []FaultPhase{FaultBefore, FaultAfter} {
		s := whServer(t)
		tok := whAdminToken(t, s)
		if err := s.InjectFault(Fault{Method: "POST", Path: subsPath, Drop: true, Phase: phase, Times: 1}); err != nil {
			t.Fatal(err)
		}
		req := newWebhookRequest(t, s, "POST", subsPath, tok, `{"endpoint":"https://example.test/h","eventTypes":["sign.signer.signed"]}`)
		resp, err := (&http.Client{Transport: s.Transport()}).Do(req)
		if err == nil {
			_ = resp.Body.Close()
			t.Fatalf("%s: dropped request answered %d", phase, resp.StatusCode)
		}
		if !errors.Is(err, faults.ErrDropped) {
			t.Errorf("%s: error %v, want the dropped-connection error", phase, err)
		}
		want := map[FaultPhase]int{FaultBefore: 0, FaultAfter: 1}[phase]
		if n := subscriptionCount(t, s, tok); n != want {
			t.Errorf("%s: %d stored, want %d", phase, n, want)
		}
		// The client sees the drop before the handler has returned and the
		// journal has written the request down: wait for the entry.
		var e *journal.Entry
		for deadline := time.Now().Add(5 * time.Second); e == nil && time.Now().Before(deadline); time.Sleep(time.Millisecond) {
			e = lastJournaled(s, "POST", subsPath)
		}
		if e == nil || e.Status != 0 {
			t.Errorf("%s: journal entry %+v, want the dropped request with status 0", phase, e)
		}
	}
}

// lastJournaled is the latest journal entry of method and path, or nil.
func lastJournaled(s *Server, method, path string) *journal.Entry {
	entries := s.core.Journal.List()
	for i := len(entries) - 1; i >= 0; i-- {
		if e := entries[i]; e.Method == method && e.Path == path {
			return &e
		}
	}
	return nil
}

// ctlSend sends a control API request over the network and answers its status.
func ctlSend(t *testing.T, s *Server, method, path, body string) int {
	t.Helper()
	req, err := http.NewRequest(method, s.URL()+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json") // the control API takes JSON only
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	_ = resp.Body.Close()
	return resp.StatusCode
}

func TestFaultDropOverTheNetwork(t *testing.T) {
	t.Parallel()
	s := Start(t, WithManualClock(whEpoch))
	if st := ctlSend(t, s, "POST", "/mock/faults", `{"method":"GET","path":"/mock/health","status":500}`); st != 422 {
		t.Errorf("faulting the control API: %d, want 422", st)
	}
	if st := ctlSend(t, s, "POST", "/mock/faults", `{"method":"GET","path":"/collect/api/*","drop":true,"times":1}`); st != 201 {
		t.Fatalf("POST /mock/faults: %d", st)
	}
	if r, err := http.Get(s.URL() + "/collect/api/v1/forms/x"); err == nil {
		_ = r.Body.Close()
		t.Errorf("dropped connection answered %d", r.StatusCode)
	}
	if r, err := http.Get(s.URL() + "/collect/api/v1/forms/x"); err != nil || r.StatusCode != 401 {
		t.Errorf("after the drop: %v %v, want the normal 401", r, err)
	} else {
		_ = r.Body.Close()
	}
}

func TestFaultDelayEndsWithTheClient(t *testing.T) {
	t.Parallel()
	s := Start(t, WithManualClock(whEpoch))
	if st := ctlSend(t, s, "POST", "/mock/faults", `{"method":"GET","path":"/collect/api/*","delayMs":5000}`); st != 201 {
		t.Fatalf("POST /mock/faults: %d", st)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", s.URL()+"/collect/api/v1/forms/x", nil)
	start := time.Now()
	if r, err := http.DefaultClient.Do(req); err == nil {
		_ = r.Body.Close()
		t.Errorf("delayed answer came before the client's deadline: %d", r.StatusCode)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("delay not bounded by the client: %v", took)
	}
	if st := ctlSend(t, s, "DELETE", "/mock/faults", ""); st != 204 {
		t.Fatalf("DELETE /mock/faults: %d", st)
	}
	if len(s.Faults()) != 0 {
		t.Errorf("faults left after DELETE: %+v", s.Faults())
	}
}

func TestFaultValidation(t *testing.T) {
	t.Parallel()
	s := whServer(t)
	tests := []struct {
		name  string
		fault Fault
		field string
	}{
		{"no path", Fault{Status: 500}, "path"},
		{"relative path", Fault{Path: "x", Status: 500}, "path"},
		{"inner star", Fault{Path: "/a*/b", Status: 500}, "path"},
		{"control API", Fault{Path: "/mock/*", Status: 500}, "path"},
		{"lower-case method", Fault{Method: "get", Path: "/a", Status: 500}, "method"},
		{"status 99", Fault{Path: "/a", Status: 99}, "status"},
		{"status 600", Fault{Path: "/a", Status: 600}, "status"},
		{"drop with status", Fault{Path: "/a", Status: 500, Drop: true}, "status"},
		{"retryAfter without status", Fault{Path: "/a", DelayMs: 5, RetryAfter: 3}, "retryAfter"},
		{"negative delay", Fault{Path: "/a", Status: 500, DelayMs: -1}, "delayMs"},
		{"unknown phase", Fault{Path: "/a", Status: 500, Phase: "during"}, "phase"},
		{"negative times", Fault{Path: "/a", Status: 500, Times: -1}, "times"},
		{"does nothing", Fault{Path: "/a"}, "status"},
	}
	for _, tc := range tests {
		err := s.InjectFault(tc.fault)
		var ae *signkit.Error
		if !errors.As(err, &ae) || ae.StatusCode != 422 || len(ae.Details) == 0 || ae.Details[0].Field != tc.field ||
			!errors.Is(err, signkit.ErrValidation) {
			t.Errorf("%s: %v, want a 422 on %s", tc.name, err, tc.field)
		}
	}
	if len(s.Faults()) != 0 {
		t.Errorf("invalid faults were added: %+v", s.Faults())
	}
}

func TestFaultsReachEveryService(t *testing.T) {
	t.Parallel()
	s := whServer(t)
	paths := []string{"/auth/oauth/token", "/collect/api/v1/forms", "/api/v1/casefiles/1", "/send/api/v1/casefiles/20251022/create",
		"/webhook/api/v1/subscriptions", "/public/anything"}
	for _, p := range paths {
		if err := s.InjectFault(Fault{Path: p, Status: 418, Times: 1}); err != nil {
			t.Fatal(err)
		}
		for _, m := range []string{"GET", "POST"} {
			st, _ := whCall(t, s, m, p, "", nil, nil)
			if m == "GET" && st != 418 {
				t.Errorf("GET %s: %d, want the injected 418", p, st)
			}
			if m == "POST" && st == 418 {
				t.Errorf("POST %s got the fault a second time", p)
			}
		}
	}
}
