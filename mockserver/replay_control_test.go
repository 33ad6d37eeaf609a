package mockserver

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// replaySetup starts a mock with a subscription to the test event, whose
// one delivery is in the journal, and answers the mock, the subscription's
// id and the event's id.
func replaySetup(t *testing.T) (*Server, string, string) {
	t.Helper()
	s := Start(t, WithManualClock(epoch))
	tok := whAdminToken(t, s)
	rc := newReceiver(t, http.StatusOK)
	sub := whSubscribe(t, s, tok, rc.URL(), "webhook.subscription.test")
	whTestEvent(t, s, tok)
	s.Advance(0)
	ds := s.Deliveries()
	if len(ds) != 1 {
		t.Fatalf("before the replay: %d attempts", len(ds))
	}
	return s, sub.ID, ds[0].EventID
}

// httpDeliveries answers GET /mock/deliveries over HTTP.
func httpDeliveries(t *testing.T, s *Server) []Delivery {
	t.Helper()
	st, _, body := netSend(t, netReq(t, s, "GET", "/mock/deliveries", "", ""))
	var list struct{ Items []Delivery }
	if err := json.Unmarshal([]byte(body), &list); st != http.StatusOK || err != nil {
		t.Fatalf("GET /mock/deliveries: %d %v %.300s", st, err, body)
	}
	return list.Items
}

// POST /mock/deliveries/replay is the dashboard's Replay for code: 202 and
// a new series of attempts of the same event, with no Origin and no
// Referer, as curl and test code send it; what Server.ReplayDelivery
// refuses it refuses with the same status, as the platform's JSON error.
func TestReplayControlRoute(t *testing.T) {
	t.Parallel()
	s, subID, eventID := replaySetup(t)
	body := `{"subscriptionId":"` + subID + `","eventId":"` + eventID + `"}`
	st, ct, answer := netSend(t, netReq(t, s, "POST", "/mock/deliveries/replay", "", body, "Content-Type", "application/json"))
	if st != http.StatusAccepted || !strings.HasPrefix(ct, "application/json") || !strings.Contains(answer, `"eventId":"`+eventID+`"`) {
		t.Fatalf("replay: %d %s %.300s", st, ct, answer)
	}
	s.Advance(0)
	got := httpDeliveries(t, s)
	if len(got) != 2 || got[1].EventID != eventID || got[1].SubscriptionID != subID || got[1].Attempt != 1 ||
		!got[1].Replay || got[1].Outcome != OutcomeDelivered {
		t.Fatalf("after the replay, GET /mock/deliveries: %+v", got)
	}

	for _, tc := range []struct {
		name, body string
		headers    []string
		status     int
		code, says string
	}{
		{"an unknown event", `{"subscriptionId":"` + subID + `","eventId":"no-such-event"}`, nil, 404, "not_found", "no-such-event"},
		{"an unknown subscription", `{"subscriptionId":"nope","eventId":"` + eventID + `"}`, nil, 404, "not_found", "nope"},
		{"text/plain", body, []string{"Content-Type", "text/plain"}, 415, "unsupported_media_type", "application/json"},
		{"a form", "subscriptionId=" + subID + "&eventId=" + eventID,
			[]string{"Content-Type", "application/x-www-form-urlencoded"}, 415, "unsupported_media_type", "application/json"},
		{"a body without Content-Type", body, []string{}, 415, "unsupported_media_type", "application/json"},
		{"malformed JSON", `{"subscriptionId":`, nil, 400, "bad_request", "malformed JSON"},
		{"no body", "", []string{}, 400, "bad_request", "malformed JSON"},
		{"a number for an id", `{"subscriptionId":1,"eventId":"` + eventID + `"}`, nil, 400, "bad_request", "malformed JSON"},
		{"no eventId", `{"subscriptionId":"` + subID + `"}`, nil, 422, "validation_failed", `"field":"eventId"`},
		{"an empty object", `{}`, nil, 422, "validation_failed", `"field":"subscriptionId"`},
		{"two values", body + body, nil, 400, "bad_request", "more than one JSON value"},
		{"another origin", body, []string{"Content-Type", "application/json", "Origin", "http://127.0.0.1:1"}, 403, "forbidden", ""},
		{"another origin's Referer", body, []string{"Content-Type", "application/json", "Referer", "https://evil.example/x"}, 403, "forbidden", ""},
	} {
		hs := tc.headers
		if hs == nil {
			hs = []string{"Content-Type", "application/json"}
		}
		st, ct, answer := netSend(t, netReq(t, s, "POST", "/mock/deliveries/replay", "", tc.body, hs...))
		if st != tc.status || !strings.HasPrefix(ct, "application/json") || !strings.Contains(answer, `"error":"`+tc.code+`"`) ||
			!strings.Contains(answer, tc.says) {
			t.Errorf("%s: %d %s %.300s; want %d %s saying %s", tc.name, st, ct, answer, tc.status, tc.code, tc.says)
		}
	}
	s.Advance(0)
	if n := len(httpDeliveries(t, s)); n != 2 {
		t.Fatalf("refused replays made attempts: %d in the journal, want 2", n)
	}

	// The mock's own page may call it too (the Origin a browser sends).
	if st, _, answer := netSend(t, netReq(t, s, "POST", "/mock/deliveries/replay", "", body,
		"Content-Type", "application/json", "Origin", s.URL())); st != http.StatusAccepted {
		t.Fatalf("replay from the mock's own origin: %d %.300s", st, answer)
	}
	// A subscription that no longer takes the event: 409, as ReplayDelivery.
	tok := whAdminToken(t, s)
	rc := newReceiver(t, http.StatusOK)
	if st, b := whCall(t, s, "PUT", "/webhook/api/v1/subscriptions/"+subID, tok, map[string]any{
		"endpoint": rc.URL(), "eventTypes": []string{"webhook.subscription.test"}, "isActive": false}, nil); st != http.StatusOK {
		t.Fatalf("deactivate: %d %s", st, b)
	}
	st, _, answer = netSend(t, netReq(t, s, "POST", "/mock/deliveries/replay", "", body, "Content-Type", "application/json"))
	if st != http.StatusConflict || !strings.Contains(answer, `"error":"conflict"`) || !strings.Contains(answer, subID) {
		t.Errorf("replay to an inactive subscription: %d %.300s", st, answer)
	}
}

// The dashboard's forms, replay included, need the mock's own Origin or
// Referer: without either they are refused 403, with a message that names
// the control API's route for code. With them, a failed replay lands on
// the webhooks view, which shows the failure.
func TestReplayDashboardFormNeedsItsPage(t *testing.T) {
	t.Parallel()
	s, subID, eventID := replaySetup(t)
	form := "subscriptionId=" + subID + "&eventId=" + eventID
	st, ct, answer := netSend(t, netReq(t, s, "POST", "/mock/ui/webhooks/replay", "", form,
		"Content-Type", "application/x-www-form-urlencoded", "Accept", "application/json"))
	if st != http.StatusForbidden || !strings.HasPrefix(ct, "application/json") ||
		!strings.Contains(answer, "POST /mock/deliveries/replay") {
		t.Errorf("the dashboard's replay without Origin or Referer: %d %s %.300s", st, ct, answer)
	}
	s.Advance(0)
	if n := len(s.Deliveries()); n != 1 {
		t.Fatalf("a refused replay made attempts: %d in the journal", n)
	}

	// From its page, a replay that fails comes back to the webhooks view,
	// which says what went wrong.
	req := netReq(t, s, "POST", "/mock/ui/webhooks/replay", "", "subscriptionId="+subID+"&eventId=no-such-event",
		"Content-Type", "application/x-www-form-urlencoded", "Origin", s.URL())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	if resp.StatusCode != http.StatusOK || resp.Request.URL.Path != "/mock/ui/webhooks" ||
		!strings.Contains(page, "Not done:") || !strings.Contains(page, "no-such-event") {
		t.Errorf("a failed replay from the dashboard lands on %d %s:\n%.2000s", resp.StatusCode, resp.Request.URL, page)
	}
}

// Without Origin and Referer (curl, SDKs, test code), every state-changing
// route under /mock/ passes the guard, except the dashboard's forms
// (/mock/ui/...), which need the Origin or Referer of their own page; the
// refusal names the route code calls instead.
func TestGuardWithoutOriginOrReferer(t *testing.T) {
	t.Parallel()
	s := Start(t, WithManualClock(epoch))
	fill := strings.NewReplacer("{casefileId}", "1", "{id}", "1", "{signerId}", "1", "{action}", "open")
	seen := map[bool]int{}
	for _, p := range s.core.Patterns {
		method, path, _ := strings.Cut(p, " ")
		if !strings.HasPrefix(path, "/mock/") || method == "GET" {
			continue
		}
		path = fill.Replace(path)
		form := strings.HasPrefix(path, "/mock/ui/")
		seen[form]++
		ct, body := "application/json", "{}"
		if form {
			ct, body = "application/x-www-form-urlencoded", "a=1"
		}
		st, _, answer := netSend(t, netReq(t, s, method, path, "", body, "Content-Type", ct, "Accept", "application/json"))
		switch {
		case form && (st != http.StatusForbidden || !strings.Contains(answer, "from code, call ")):
			t.Errorf("%s %s (a dashboard form) without Origin or Referer: %d %.300s, want 403", method, path, st, answer)
		case !form && st == http.StatusForbidden:
			t.Errorf("%s %s without Origin or Referer: 403 %.300s", method, path, answer)
		}
	}
	if seen[true] < 5 || seen[false] < 10 {
		t.Fatalf("routes tried: %d dashboard forms, %d control routes", seen[true], seen[false])
	}
}
