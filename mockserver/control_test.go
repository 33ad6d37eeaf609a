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

// POST /mock/token answers a working token without the grant (mock only),
// for the default admin or a named user; an unknown user is a 422.
func TestMockTokenShortcut(t *testing.T) {
	t.Parallel()
	s := newManual(t)
	var tok struct {
		AccessToken string `json:"access_token"`
		ExpiresIn   int    `json:"expires_in"`
		MockOnly    string `json:"mock_only"`
	}
	if st, b := call(t, s, "POST", "/mock/token", "", nil, &tok); st != 200 || tok.AccessToken == "" || tok.ExpiresIn != 600 || tok.MockOnly == "" {
		t.Fatalf("token: %d %s", st, b)
	}
	if st, b := call(t, s, "GET", "/collect/api/v1/forms/nope", tok.AccessToken, nil, nil); st != 404 {
		t.Fatalf("the shortcut's token is refused: %d %s", st, b)
	}
	other, err := s.AddUser(UserSpec{Name: "Bo", Email: "bo@example.com", NewCustomer: true})
	if err != nil {
		t.Fatal(err)
	}
	if st, b := call(t, s, "POST", "/mock/token", "", map[string]any{"userId": other.UserID}, &tok); st != 200 {
		t.Fatalf("token of another user: %d %s", st, b)
	}
	if st, _ := call(t, s, "POST", "/mock/token", "", map[string]any{"userId": 999}, nil); st != 422 {
		t.Fatalf("token of an unknown user: %d, want 422", st)
	}
	s.Advance(10*time.Minute + time.Second)
	if st, _ := call(t, s, "GET", "/collect/api/v1/forms/nope", tok.AccessToken, nil, nil); st != 401 {
		t.Fatalf("an expired shortcut token: %d, want 401", st)
	}
	off := newManual(t, WithControlAPI(false))
	if st, _ := call(t, off, "POST", "/mock/token", "", nil, nil); st != 404 {
		t.Fatalf("shortcut with the control API off: %d, want 404", st)
	}
}
