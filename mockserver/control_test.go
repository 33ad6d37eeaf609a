package mockserver

import (
	"net/http"
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/journal"
)

func TestControlAPI(t *testing.T) {
	t.Parallel()
	s := newManual(t)
	var creds UserCredentials
	if st, _ := call(t, s, "GET", "/mock/credentials", "", nil, &creds); st != 200 || creds != s.DefaultCredentials() ||
		creds.UserID != DefaultUserID || creds.CustomerID != DefaultCustomerID || creds.APISecret == "" {
		t.Fatalf("credentials: %d %+v", st, creds)
	}
	var clk struct{ Now time.Time }
	if st, _ := call(t, s, "GET", "/mock/clock", "", nil, &clk); st != 200 || !clk.Now.Equal(epoch) {
		t.Fatalf("clock: %d %v", st, clk.Now)
	}
	if st, _ := call(t, s, "POST", "/mock/clock/advance", "", map[string]any{"seconds": 90.5}, &clk); st != 200 ||
		!clk.Now.Equal(epoch.Add(90*time.Second+500*time.Millisecond)) || !s.Now().Equal(clk.Now) {
		t.Fatalf("advance: %d %v", st, clk.Now)
	}
	for _, bad := range []map[string]any{{"seconds": -1}, {}} {
		var e apiErr
		if st, _ := call(t, s, "POST", "/mock/clock/advance", "", bad, &e); st != 422 || len(e.Details) != 1 || e.Details[0].Field != "seconds" {
			t.Errorf("advance %v: %d %+v", bad, st, e)
		}
	}
	var u UserCredentials
	if st, b := call(t, s, "POST", "/mock/users", "", map[string]any{"name": "Bob", "superUser": true}, &u); st != 201 ||
		u.UserID == DefaultUserID || u.CustomerID != DefaultCustomerID || u.ClientSecret == "" {
		t.Fatalf("add user: %d %s", st, b)
	}
	var other UserCredentials
	if st, _ := call(t, s, "POST", "/mock/users", "", map[string]any{"name": "Eve", "newCustomer": true}, &other); st != 201 || other.CustomerID == DefaultCustomerID {
		t.Fatalf("add user of new customer: %d %+v", st, other)
	}
	login(t, s, u) // the new user can log in
	var e apiErr
	if st, _ := call(t, s, "POST", "/mock/users", "", map[string]any{"email": "x"}, &e); st != 422 || len(e.Details) != 2 {
		t.Fatalf("bad user: %d %+v", st, e)
	}
	var reqs struct {
		Items []journal.Entry `json:"items"`
	}
	call(t, s, "GET", "/mock/requests", "", nil, &reqs)
	if n := len(reqs.Items); n < 6 || reqs.Items[0].Path != "/mock/credentials" || reqs.Items[0].Status != 200 || reqs.Items[n-1].Method != "POST" {
		t.Fatalf("journal: %+v", reqs.Items)
	}
	if st, _ := call(t, s, "POST", "/mock/reset", "", nil, nil); st != 204 {
		t.Fatalf("reset: %d", st)
	}
	if st, _ := call(t, s, "POST", "/auth/oauth/token", "", tokenBody(u, time.Now()), nil); st != 401 {
		t.Fatalf("after reset the added user still logs in: %d", st)
	}
	if st, _ := call(t, s, "GET", "/mock/health", "", nil, nil); st != 200 {
		t.Fatalf("health: %d", st)
	}
}

func TestStartListensAndConfig(t *testing.T) {
	t.Parallel()
	s := Start(t)
	cfg := s.Config()
	if cfg.Endpoints.Auth != s.URL()+"/auth" || cfg.Credentials.APIKey != DefaultAPIKey {
		t.Fatalf("config: %+v", cfg.Endpoints)
	}
	resp, err := http.Get(s.URL() + "/mock/health")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("health over loopback: %d", resp.StatusCode)
	}
}
