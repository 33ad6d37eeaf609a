package mockserver

import (
	"encoding/json"
	"net/http"
	"testing"
)

// TestJournalQueryParameters: the journals under /mock/ take the query
// parameters their description lists and refuse any other with a 400 that names
// it, rather than list everything as if no filter had been given; a value that
// does not parse is a 400 naming the parameter too
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#journals).
func TestJournalQueryParameters(t *testing.T) {
	t.Parallel()
	s := newManual(t)
	for _, tt := range []struct {
		target string
		status int
		field  string // the detail's field, when refused
	}{
		{"/mock/events?after=0&customerId=1", 200, ""},
		{"/mock/events?after=", 200, ""},
		{"/mock/events?since=abc", 400, "since"},
		{"/mock/events?after=abc", 400, "after"},
		{"/mock/events?customerId=-1", 400, "customerId"},
		{"/mock/deliveries?subscriptionId=s&eventId=e&eventType=sign.casefile.completed", 200, ""},
		{"/mock/deliveries?eventType=completed", 400, "eventType"},
		{"/mock/deliveries?eventid=e", 400, "eventid"},
		{"/mock/emails", 200, ""},
		{"/mock/emails?to=ann@example.com", 400, "to"},
		{"/mock/requests", 200, ""},
		{"/mock/requests?limit=5", 400, "limit"},
	} {
		var body apiErr
		st, b := call(t, s, http.MethodGet, tt.target, "", nil, nil)
		if st != tt.status {
			t.Errorf("GET %s: %d %s, want %d", tt.target, st, b, tt.status)
			continue
		}
		if st == 200 {
			continue
		}
		if err := json.Unmarshal(b, &body); err != nil || body.StatusCode != st || len(body.Details) != 1 ||
			body.Details[0].Field != tt.field {
			t.Errorf("GET %s: %s, want the platform's error naming %s", tt.target, b, tt.field)
		}
	}
}
