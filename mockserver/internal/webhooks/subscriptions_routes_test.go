package webhooks_test

import (
	"bytes"
	"fmt"
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
	"github.com/signkit/signkit-go/mockserver/internal/webhooks"
)

func TestSubscriptionCreateAnswersTheSpecShape(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	tok := adminToken(t, s)
	var raw map[string]any
	st, b := sdkCall(t, s, "POST", subsPath, tok,
		map[string]any{"endpoint": "https://hooks.example.test/in", "eventTypes": []string{"sign.casefile.completed"}}, &raw)
	if st != http.StatusCreated {
		t.Fatalf("create: %d %s", st, b)
	}
	for _, k := range []string{"customerId", "id", "isActive", "secret", "eventTypes", "endpoint"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("answer lacks %q: %s", k, b)
		}
	}
	if len(raw) != 6 {
		t.Errorf("answer has %d keys, want the spec's 6: %s", len(raw), b)
	}
	secret, _ := raw["secret"].(string)
	if !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(secret) {
		t.Errorf("secret %q is not 32 random bytes in hex", secret)
	}
	if !uuidRE.MatchString(raw["id"].(string)) || raw["isActive"] != true || raw["customerId"] != float64(mockserver.DefaultCustomerID) {
		t.Errorf("answer = %s", b)
	}
	other := subscribe(t, s, tok, "https://hooks.example.test/other", testEventType)
	if other.Secret == secret {
		t.Error("two subscriptions got the same secret")
	}
}

func TestSubscriptionValidation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		body      string
		wantField string // "" = accepted
	}{
		{"https", `{"endpoint":"https://example.test/h","eventTypes":["sign.signer.signed"]}`, ""},
		{"http on 127.0.0.1", `{"endpoint":"http://127.0.0.1:9/h","eventTypes":["sign.signer.signed"]}`, ""},
		{"http on 127.1.2.3", `{"endpoint":"http://127.1.2.3/h","eventTypes":["sign.signer.signed"]}`, ""},
		{"http on ::1", `{"endpoint":"http://[::1]:8080/h","eventTypes":["sign.signer.signed"]}`, ""},
		{"http on localhost", `{"endpoint":"http://LocalHost:8080/h","eventTypes":["sign.signer.signed"]}`, ""},
		{"all 17 types", `{"endpoint":"https://example.test/all","eventTypes":["sign.casefile.completed","sign.casefile.expired","sign.casefile.failed","sign.casefile.rejected","sign.signer.requestActivated","sign.signer.requestSent","sign.signer.reminderSent","sign.signer.requestOpened","sign.signer.undeliverable","sign.signer.opened","sign.signer.rejected","sign.signer.signed","sign.signer.signedWithImageUploadAndNAP","sign.signer.finalized","sign.signer.deleted","sign.signer.transientBounce","webhook.subscription.test"]}`, ""},
		{"http elsewhere", `{"endpoint":"http://example.test/h","eventTypes":["sign.signer.signed"]}`, "endpoint"},
		{"http on 128.0.0.1", `{"endpoint":"http://128.0.0.1/h","eventTypes":["sign.signer.signed"]}`, "endpoint"},
		{"ftp", `{"endpoint":"ftp://127.0.0.1/h","eventTypes":["sign.signer.signed"]}`, "endpoint"},
		{"relative", `{"endpoint":"/h","eventTypes":["sign.signer.signed"]}`, "endpoint"},
		{"user info", `{"endpoint":"https://u:p@example.test/h","eventTypes":["sign.signer.signed"]}`, "endpoint"},
		{"no endpoint", `{"eventTypes":["sign.signer.signed"]}`, "endpoint"},
		{"unknown type", `{"endpoint":"https://example.test/h","eventTypes":["sign.signer.signed","casefile"]}`, "eventTypes[1]"},
		{"empty list", `{"endpoint":"https://example.test/h","eventTypes":[]}`, "eventTypes"},
		{"no list", `{"endpoint":"https://example.test/h"}`, "eventTypes"},
		{"type twice", `{"endpoint":"https://example.test/h","eventTypes":["sign.signer.signed","sign.signer.signed"]}`, "eventTypes[1]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newServer(t)
			tok := adminToken(t, s)
			req := webhookRequest(t, s, "POST", subsPath, tok, tc.body)
			var e testkit.APIError
			st, b := testkit.Do(t, s, req, &e)
			var page struct{ Items []subscriptionJSON }
			sdkCall(t, s, "GET", subsPath, tok, nil, &page)
			if tc.wantField == "" {
				if st != http.StatusCreated || len(page.Items) != 1 {
					t.Fatalf("got %d %s and %d stored, want 201 and one stored", st, b, len(page.Items))
				}
				return
			}
			if st != http.StatusUnprocessableEntity || len(e.Details) == 0 || e.Details[0].Field != tc.wantField {
				t.Errorf("got %d %s, want 422 with a detail on %s", st, b, tc.wantField)
			}
			if len(page.Items) != 0 {
				t.Errorf("an invalid subscription was stored: %+v", page.Items)
			}
		})
	}
}

func TestSubscriptionHeaders(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	tok := adminToken(t, s)
	body := `{"endpoint":"https://example.test/%d","eventTypes":["sign.signer.signed"],"isActive":false}`
	tests := []struct {
		name   string
		header map[string]string
		want   int
	}{
		{"JWT and X-Auth-Token", map[string]string{"Authorization": "JWT " + tok, "X-Auth-Token": tok}, 201},
		{"JWT only", map[string]string{"Authorization": "JWT " + tok}, 201},
		{"Bearer only", map[string]string{"Authorization": "Bearer " + tok}, 201},
		{"X-Auth-Token only", map[string]string{"X-Auth-Token": tok}, 201},
		{"no token", map[string]string{}, 401},
		{"bare JWT and X-Auth-Token", map[string]string{"Authorization": "JWT", "X-Auth-Token": tok}, 201},
		{"bad token", map[string]string{"Authorization": "JWT nope"}, 401},
		{"malformed bearer token", map[string]string{"Authorization": "Bearer nope"}, 401},
		{"charset in content type", map[string]string{"X-Auth-Token": tok, "Content-Type": "application/json; charset=utf-8"}, 201},
		{"form body", map[string]string{"X-Auth-Token": tok, "Content-Type": "application/x-www-form-urlencoded"}, 415},
		{"accepts any", map[string]string{"X-Auth-Token": tok, "Accept": "*/*", "Accept-Charset": "*"}, 201},
		{"accepts XML only", map[string]string{"X-Auth-Token": tok, "Accept": "application/xml"}, 406},
		{"refuses JSON", map[string]string{"X-Auth-Token": tok, "Accept": "application/json;q=0"}, 406},
		{"latin-1 only", map[string]string{"X-Auth-Token": tok, "Accept-Charset": "iso-8859-1"}, 406},
	}
	for i, tc := range tests {
		req, err := http.NewRequest("POST", s.URL()+subsPath, bytes.NewReader(fmt.Appendf(nil, body, i)))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json")
		req.Header.Set("Accept-Charset", "utf-8")
		for k, v := range tc.header {
			req.Header.Set(k, v)
		}
		if st, b := testkit.Do(t, s, req, nil); st != tc.want {
			t.Errorf("%s: got %d %s, want %d", tc.name, st, b, tc.want)
		}
	}
}

func TestSubscriptionCRUD(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	tok := adminToken(t, s)
	_, colleagueTok := addUser(t, s, mockserver.UserSpec{Name: "Colleague"})
	_, strangerTok := addUser(t, s, mockserver.UserSpec{Name: "Stranger", NewCustomer: true})
	a := subscribe(t, s, tok, "https://example.test/a", "sign.signer.signed")
	s.Advance(time.Second)
	b := subscribe(t, s, colleagueTok, "https://example.test/b", testEventType)
	subscribe(t, s, strangerTok, "https://example.test/a", "sign.signer.signed") // another customer may reuse it

	var page struct{ Items []subscriptionJSON }
	sdkCall(t, s, "GET", subsPath, tok, nil, &page)
	if len(page.Items) != 2 || page.Items[0].ID != a.ID || page.Items[1].ID != b.ID || page.Items[0].Secret != a.Secret {
		t.Fatalf("list = %+v, want the customer's two subscriptions, oldest first, with secrets", page.Items)
	}
	var got subscriptionJSON
	if st, _ := sdkCall(t, s, "GET", subsPath+"/"+b.ID, tok, nil, &got); st != 200 || got.Secret != b.Secret {
		t.Errorf("get a colleague's subscription: %d %+v", st, got)
	}
	if st, _ := sdkCall(t, s, "GET", subsPath+"/"+a.ID, strangerTok, nil, nil); st != 404 {
		t.Errorf("another customer's get: %d, want 404", st)
	}

	put := map[string]any{"endpoint": "https://example.test/a2", "eventTypes": []string{"sign.casefile.expired"}, "isActive": false}
	if st, _ := sdkCall(t, s, "PUT", subsPath+"/"+a.ID, strangerTok, put, nil); st != 404 {
		t.Errorf("another customer's put: %d, want 404", st)
	}
	if st, body := sdkCall(t, s, "PUT", subsPath+"/"+a.ID, tok, put, &got); st != 200 || got.IsActive ||
		got.Endpoint != "https://example.test/a2" || len(got.EventTypes) != 1 || got.EventTypes[0] != "sign.casefile.expired" ||
		got.Secret != a.Secret || got.ID != a.ID {
		t.Errorf("put: %d %s", st, body)
	}
	put["isActive"] = true // re-enabled
	if sdkCall(t, s, "PUT", subsPath+"/"+a.ID, tok, put, &got); !got.IsActive {
		t.Errorf("put with isActive true: %+v", got)
	}
	delete(put, "isActive") // PUT replaces the whole subscription: absent isActive is false
	put["endpoint"] = "https://example.test/a3"
	if sdkCall(t, s, "PUT", subsPath+"/"+a.ID, tok, put, &got); got.IsActive || got.Endpoint != "https://example.test/a3" {
		t.Errorf("put without isActive: %+v, want it inactive", got)
	}
	put["endpoint"] = "https://EXAMPLE.test/b"
	if st, _ := sdkCall(t, s, "PUT", subsPath+"/"+a.ID, tok, put, nil); st != 409 {
		t.Errorf("put onto b's endpoint: %d, want 409", st)
	}
	if st, _ := sdkCall(t, s, "PUT", subsPath+"/"+a.ID, tok, map[string]any{"endpoint": "http://example.test/x",
		"eventTypes": []string{"sign.casefile.expired"}}, nil); st != 422 {
		t.Errorf("invalid put: %d, want 422", st)
	}

	if st, _ := sdkCall(t, s, "DELETE", subsPath+"/"+a.ID, strangerTok, nil, nil); st != 404 {
		t.Errorf("another customer's delete: %d, want 404", st)
	}
	if st, _ := sdkCall(t, s, "DELETE", subsPath+"/"+a.ID, tok, nil, nil); st != 204 {
		t.Errorf("delete: %d, want 204", st)
	}
	for _, m := range []string{"GET", "DELETE"} {
		if st, _ := sdkCall(t, s, m, subsPath+"/"+a.ID, tok, nil, nil); st != 404 {
			t.Errorf("%s after delete: %d, want 404", m, st)
		}
	}
}

func TestActiveSubscriptionLimit(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	tok := adminToken(t, s)
	colleague, colleagueTok := addUser(t, s, mockserver.UserSpec{Name: "Colleague"})
	failing := newReceiver(t, http.StatusInternalServerError)
	subscribe(t, s, tok, failing.URL(), testEventType)
	for i := range 4 {
		subscribe(t, s, tok, fmt.Sprintf("https://example.test/%d", i), "sign.signer.signed")
	}
	sixth := map[string]any{"endpoint": "https://example.test/sixth", "eventTypes": []string{"sign.signer.signed"}}
	var e testkit.APIError
	if st, b := sdkCall(t, s, "POST", subsPath, colleagueTok, sixth, &e); st != 409 || e.Error != "conflict" {
		t.Fatalf("sixth active subscription by a colleague: %d %s, want 409", st, b)
	}
	inactive := map[string]any{"endpoint": "https://example.test/off", "eventTypes": []string{"sign.signer.signed"}, "isActive": false}
	var off subscriptionJSON
	if st, b := sdkCall(t, s, "POST", subsPath, colleagueTok, inactive, &off); st != 201 || off.IsActive {
		t.Fatalf("an inactive sixth: %d %s, want 201", st, b)
	}
	enable := map[string]any{"endpoint": "https://example.test/off", "eventTypes": []string{"sign.signer.signed"}, "isActive": true}
	if st, _ := sdkCall(t, s, "PUT", subsPath+"/"+off.ID, colleagueTok, enable, nil); st != 409 {
		t.Errorf("enabling a sixth: %d, want 409", st)
	}
	if st, _ := sdkCall(t, s, "POST", subsPath, tok, map[string]any{"endpoint": failing.URL(),
		"eventTypes": []string{"sign.signer.signed"}, "isActive": false}, nil); st != 409 {
		t.Errorf("same endpoint twice: %d, want 409", st)
	}

	sendTestEvent(t, s, tok)
	s.Advance(31 * time.Hour) // the failing subscription is disabled
	colleagueTok = login(t, s, colleague)
	if st, b := sdkCall(t, s, "POST", subsPath, colleagueTok, sixth, nil); st != 201 {
		t.Errorf("after one was disabled: %d %s, want 201", st, b)
	}
}

func TestConcurrentCreatesRespectTheLimit(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	tok := adminToken(t, s)
	const n = 20
	codes := make(chan int, n)
	for i := range n {
		go func() {
			req := webhookRequest(t, s, "POST", subsPath, tok,
				fmt.Sprintf(`{"endpoint":"https://example.test/%d","eventTypes":["sign.signer.signed"]}`, i))
			resp, err := (&http.Client{Transport: s.Transport()}).Do(req)
			if err != nil {
				codes <- 0
				return
			}
			_ = resp.Body.Close()
			codes <- resp.StatusCode
		}()
	}
	created := 0
	for range n {
		switch c := <-codes; c {
		case 201:
			created++
		case 409:
		default:
			t.Errorf("status %d", c)
		}
	}
	if created != webhooks.MaxActive {
		t.Errorf("%d created concurrently, want %d", created, webhooks.MaxActive)
	}
}

func TestTestEventGoesToSubscribersOfTheCustomer(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	tok := adminToken(t, s)
	listening := newReceiver(t, http.StatusNoContent)
	other := newReceiver(t, http.StatusNoContent)
	foreign := newReceiver(t, http.StatusNoContent)
	subscribe(t, s, tok, listening.URL(), testEventType, "sign.signer.signed")
	subscribe(t, s, tok, other.URL(), "sign.signer.signed")
	_, strangerTok := addUser(t, s, mockserver.UserSpec{Name: "Stranger", NewCustomer: true})
	subscribe(t, s, strangerTok, foreign.URL(), testEventType)
	sendTestEvent(t, s, tok)
	s.Advance(0)
	if len(listening.Requests()) != 1 || len(other.Requests()) != 0 || len(foreign.Requests()) != 0 {
		t.Errorf("deliveries: listening %d, not listing the type %d, other customer %d; want 1, 0, 0",
			len(listening.Requests()), len(other.Requests()), len(foreign.Requests()))
	}
}

// TestSubscriptionReplaceIsWhole: PUT replaces the whole subscription, so an
// omitted isActive disables it, and an omitted endpoint or event type list is
// refused with 422 (both are required) without changing anything.
func TestSubscriptionReplaceIsWhole(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	tok := adminToken(t, s)
	sub := subscribe(t, s, tok, "https://example.test/whole", "sign.signer.signed")
	path := subsPath + "/" + sub.ID
	tests := []struct {
		name   string
		body   map[string]any
		status int
		field  string // the detail of a 422
		active bool   // isActive after the request
	}{
		{"whole, active", map[string]any{"endpoint": "https://example.test/w1", "eventTypes": []string{"sign.signer.signed"}, "isActive": true}, 200, "", true},
		{"isActive omitted", map[string]any{"endpoint": "https://example.test/w2", "eventTypes": []string{"sign.signer.signed"}}, 200, "", false},
		{"re-enabled", map[string]any{"endpoint": "https://example.test/w3", "eventTypes": []string{"sign.signer.signed"}, "isActive": true}, 200, "", true},
		{"endpoint omitted", map[string]any{"eventTypes": []string{"sign.signer.signed"}, "isActive": false}, 422, "endpoint", true},
		{"eventTypes omitted", map[string]any{"endpoint": "https://example.test/w4", "isActive": false}, 422, "eventTypes", true},
		{"eventTypes empty", map[string]any{"endpoint": "https://example.test/w4", "eventTypes": []string{}, "isActive": false}, 422, "eventTypes", true},
	}
	for _, tc := range tests {
		var e testkit.APIError
		st, b := sdkCall(t, s, "PUT", path, tok, tc.body, &e)
		if st != tc.status {
			t.Errorf("%s: %d %s, want %d", tc.name, st, b, tc.status)
			continue
		}
		if tc.field != "" && (len(e.Details) != 1 || e.Details[0].Field != tc.field) {
			t.Errorf("%s: details %+v, want one on %s", tc.name, e.Details, tc.field)
		}
		var got subscriptionJSON
		sdkCall(t, s, "GET", path, tok, nil, &got)
		if got.IsActive != tc.active || got.Secret != sub.Secret {
			t.Errorf("%s: stored %+v, want isActive %t and the secret kept", tc.name, got, tc.active)
		}
		if tc.status == 200 && got.Endpoint != tc.body["endpoint"] {
			t.Errorf("%s: endpoint %q, want %q", tc.name, got.Endpoint, tc.body["endpoint"])
		}
		if tc.status != 200 && got.Endpoint != "https://example.test/w3" {
			t.Errorf("%s: a refused PUT changed the endpoint to %q", tc.name, got.Endpoint)
		}
	}
}

// TestTestEventBodies: the test event is asked for with {} (the vendor's
// collection), or with no body; any other JSON object is ignored; a body
// that is not a JSON object is a 400 and sends nothing.
func TestTestEventBodies(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	tok := adminToken(t, s)
	rcv := newReceiver(t, http.StatusNoContent)
	subscribe(t, s, tok, rcv.URL(), testEventType)
	tests := []struct {
		name, body string
		status     int
	}{
		{"empty object", `{}`, 204},
		{"no body", ``, 204},
		{"object", `{"note":"x"}`, 204},
		{"array", `[1]`, 400},
		{"malformed", `{`, 400},
		{"null", `null`, 400},
	}
	sent := 0
	for _, tc := range tests {
		req := webhookRequest(t, s, "POST", subsPath+"/test", tok, tc.body)
		if st, b := testkit.Do(t, s, req, nil); st != tc.status {
			t.Errorf("%s: %d %s, want %d", tc.name, st, b, tc.status)
		}
		if tc.status == 204 {
			sent++
		}
		s.Advance(0)
		if got := len(rcv.Requests()); got != sent {
			t.Errorf("%s: %d test events delivered, want %d", tc.name, got, sent)
		}
	}
}
