package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"

	"github.com/signkit/signkit-go/subscriptions"
	"github.com/signkit/signkit-go/webhooks"
)

// post sends a POST to the binary with the given Content-Type ("": none)
// and headers (name, value pairs), and answers the status and the body.
func post(t *testing.T, url, ct, body string, headers ...string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("POST", url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// binaryDeliveries answers the binary's GET /mock/deliveries, after
// waiting for the attempts in flight (POST /mock/clock/advance by 0).
func binaryDeliveries(t *testing.T, base string) []struct {
	EventID, SubscriptionID string
	Attempt                 int
	Replay                  bool
} {
	t.Helper()
	if st, b := post(t, base+"/mock/clock/advance", "application/json", `{"seconds":0}`); st != http.StatusOK {
		t.Fatalf("advance: %d %s", st, b)
	}
	resp, err := http.Get(base + "/mock/deliveries")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var list struct {
		Items []struct {
			EventID, SubscriptionID string
			Attempt                 int
			Replay                  bool
		}
	}
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /mock/deliveries: %d %v", resp.StatusCode, err)
	}
	return list.Items
}

// The binary's POST /mock/deliveries/replay, as a test in another language
// calls it: 202 and a new attempt in GET /mock/deliveries; 404 for an
// unknown delivery, 415 for a body that is not JSON, 400 for a malformed
// one, 422 for a missing id, 403 from another origin's page.
func TestBinaryReplayControlRoute(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	t.Parallel()
	cmd := exec.Command(buildBinary(t), "-addr", "127.0.0.1:0", "-clock", "manual")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	base, _ := readBanner(t, stdout)
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	client, ctx := clientOf(t, base)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {}))
	t.Cleanup(receiver.Close)
	sub, err := client.Subscriptions.Create(ctx, &subscriptions.Request{
		Endpoint: receiver.URL, EventTypes: []webhooks.EventType{webhooks.SubscriptionTest}})
	if err != nil {
		t.Fatal(err)
	}
	if err := client.Subscriptions.SendTestEvent(ctx); err != nil {
		t.Fatal(err)
	}
	ds := binaryDeliveries(t, base)
	if len(ds) != 1 {
		t.Fatalf("before the replay: %+v", ds)
	}
	body := `{"subscriptionId":"` + sub.ID + `","eventId":"` + ds[0].EventID + `"}`
	if st, b := post(t, base+"/mock/deliveries/replay", "application/json", body); st != http.StatusAccepted {
		t.Fatalf("replay: %d %s", st, b)
	}
	if ds = binaryDeliveries(t, base); len(ds) != 2 || ds[1].EventID != ds[0].EventID || ds[1].SubscriptionID != sub.ID ||
		ds[1].Attempt != 1 || !ds[1].Replay {
		t.Fatalf("after the replay: %+v", ds)
	}
	for _, tc := range []struct {
		name, ct, body string
		headers        []string
		want           int
	}{
		{"an unknown event", "application/json", `{"subscriptionId":"` + sub.ID + `","eventId":"nope"}`, nil, http.StatusNotFound},
		{"text/plain", "text/plain", body, nil, http.StatusUnsupportedMediaType},
		{"a form", "application/x-www-form-urlencoded", "subscriptionId=" + sub.ID + "&eventId=" + ds[0].EventID, nil,
			http.StatusUnsupportedMediaType},
		{"malformed JSON", "application/json", `{"subscriptionId"`, nil, http.StatusBadRequest},
		{"no eventId", "application/json", `{"subscriptionId":"` + sub.ID + `"}`, nil, http.StatusUnprocessableEntity},
		{"another origin", "application/json", body, []string{"Origin", "http://evil.example"}, http.StatusForbidden},
	} {
		if st, b := post(t, base+"/mock/deliveries/replay", tc.ct, tc.body, tc.headers...); st != tc.want ||
			!strings.Contains(b, `"statusCode":`) {
			t.Errorf("%s: %d %.300s, want %d and the JSON error", tc.name, st, b, tc.want)
		}
	}
	// The dashboard's form takes its own page's posts only, and says what
	// code calls instead.
	if st, b := post(t, base+"/mock/ui/webhooks/replay", "application/x-www-form-urlencoded",
		"subscriptionId="+sub.ID+"&eventId="+ds[0].EventID, "Accept", "application/json"); st != http.StatusForbidden ||
		!strings.Contains(b, "POST /mock/deliveries/replay") {
		t.Errorf("the dashboard's replay form without Origin: %d %.300s", st, b)
	}
	if ds = binaryDeliveries(t, base); len(ds) != 2 {
		t.Fatalf("refused replays made attempts: %+v", ds)
	}
}

// -h says what the guard does: test code passes everywhere but on the
// dashboard's forms, and replays through the control API's route.
func TestUsageSaysWhoMayPost(t *testing.T) {
	t.Parallel()
	flat := strings.Join(strings.Fields(usage), " ")
	for _, want := range []string{
		"pass on every /mock/ route but the dashboard's forms (POST /mock/ui/...)",
		"403 without Origin or Referer",
		`POST /mock/deliveries/replay {"subscriptionId","eventId"}`,
		"a Host without a port counts as the -base-url scheme's default port (https 443, http 80)",
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("the usage does not say %q:\n%s", want, usage)
		}
	}
}
