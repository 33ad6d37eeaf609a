package mockserver

import (
	"testing"

	"github.com/signkit/signkit-go/mockserver/internal/forms"
)

func TestStatsCountWhatIsStored(t *testing.T) {
	t.Parallel()
	s := whServer(t)
	tok := whAdminToken(t, s)
	if got := s.Stats(); got != (Stats{}) {
		t.Fatalf("a new server holds %+v", got)
	}
	id := activeForm(t, s, tok, sampleForm()).ExternalID
	if st, b := call(t, s, "POST", "/collect/api/v1/forms/"+id+"/requests", tok,
		map[string]any{"answers": map[string]any{"email": map[string]any{"value": "a@example.com"}}}, nil); st != 200 {
		t.Fatalf("prefill: %d %s", st, b)
	}
	for range 2 {
		if _, err := s.core.Forms.Submit(id, "", forms.NewSubmissionInput(validAnswers(), nil)); err != nil {
			t.Fatal(err)
		}
	}
	if st, b := whCall(t, s, "POST", subsPath, tok,
		map[string]any{"endpoint": "https://example.test/h", "eventTypes": []string{"sign.signer.signed"}}, nil); st != 201 {
		t.Fatalf("subscribe: %d %s", st, b)
	}

	want := Stats{Forms: 1, PrefillRequests: 1, Submissions: 2, CaseFiles: 2, Subscriptions: 1}
	if got := s.Stats(); got != want {
		t.Errorf("Stats() = %+v, want %+v", got, want)
	}
	var viaControl Stats
	if st, b := call(t, s, "GET", "/mock/stats", "", nil, &viaControl); st != 200 || viaControl != want {
		t.Errorf("GET /mock/stats = %d %s, want %+v", st, b, want)
	}
	s.Reset()
	if got := s.Stats(); got != (Stats{}) {
		t.Errorf("after Reset: %+v", got)
	}
}
